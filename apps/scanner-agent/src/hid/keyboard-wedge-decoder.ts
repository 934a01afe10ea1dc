/**
 * Keyboard-wedge readers present themselves as a USB keyboard and "type" the card UID followed by
 * Enter. Held exclusively, their input never reaches a console; we read their boot-keyboard reports
 * instead and decode them here. A report is 8 bytes: modifiers, reserved, then up to six HID usage
 * ids of the keys held down (USB HID Usage Tables, page 0x07). Some devices put a report id first (9
 * bytes). A key counts when it appears in a report without being in the previous one, so a key held
 * across reports is typed once and the same digit twice in a row needs a release in between, as on a
 * real keyboard.
 */
const USAGE_CHARACTERS = new Map<number, string>([
  // a-z (0x04-0x1D): only a-f are hex, the rest are kept so a misread shows up as a clear error
  ...Array.from({ length: 26 }, (_, index) => [0x04 + index, String.fromCharCode(0x61 + index)] as [number, string]),
  // 1-9, 0 on the main block
  ...Array.from({ length: 9 }, (_, index) => [0x1e + index, String(index + 1)] as [number, string]),
  [0x27, '0'],
  // keypad 1-9, 0
  ...Array.from({ length: 9 }, (_, index) => [0x59 + index, String(index + 1)] as [number, string]),
  [0x62, '0'],
  [0x2d, '-'],
  [0x33, ':'],
  [0x2c, ' '],
]);
/** Enter, keypad Enter, Tab: what readers send after the UID */
const TERMINATORS = new Set([0x28, 0x58, 0x2b]);
/** keyboard rollover error: the report says nothing about keys */
const ERROR_ROLL_OVER = 0x01;
/** a UID is at most 16 bytes; anything longer without Enter is noise */
const MAX_TYPED = 64;

export type WedgeOutput = { kind: 'uid'; text: string } | { kind: 'error'; message: string };

export class KeyboardWedgeDecoder {
  private held = new Set<number>();
  private typed = '';

  /** Feeds one input report; answers the UIDs (or errors) it completed. */
  push(report: Uint8Array | readonly number[]): WedgeOutput[] {
    const bytes = Array.from(report);
    // 9 bytes: a report id first; anything else must be a boot report
    const keys = bytes.length === 9 ? bytes.slice(3) : bytes.length === 8 ? bytes.slice(2) : null;
    if (keys === null) return [{ kind: 'error', message: `not a keyboard report (${bytes.length} bytes, expected 8 or 9)` }];
    if (keys.every((key) => key === ERROR_ROLL_OVER)) return [];
    const down = keys.filter((key) => key !== 0);
    const out: WedgeOutput[] = [];
    for (const key of down) {
      if (this.held.has(key)) continue;
      if (TERMINATORS.has(key)) {
        if (this.typed !== '') out.push({ kind: 'uid', text: this.typed });
        this.typed = '';
        continue;
      }
      const character = USAGE_CHARACTERS.get(key);
      if (character === undefined) {
        out.push({ kind: 'error', message: `unexpected key (HID usage 0x${key.toString(16).padStart(2, '0')}) while reading a card; discarded ${JSON.stringify(this.typed)}` });
        this.typed = '';
        continue;
      }
      this.typed += character;
      if (this.typed.length > MAX_TYPED) {
        out.push({ kind: 'error', message: `more than ${MAX_TYPED} characters without Enter; discarded` });
        this.typed = '';
      }
    }
    this.held = new Set(down);
    return out;
  }
}

/**
 * Many 125 kHz wedge readers type the card number as one decimal number (often 10 digits, the 4-byte
 * UID read big-endian). Turned into hex bytes, at least 4, so the server sees the same UID whichever
 * way the reader typed it. Answers null for anything but digits.
 */
export function decimalUidToHex(typed: string): string | null {
  if (!/^\d{1,40}$/.test(typed)) return null;
  let hex = BigInt(typed).toString(16).toUpperCase();
  if (hex.length % 2 === 1) hex = `0${hex}`;
  return hex.padStart(8, '0');
}
