import { describe, expect, it } from 'vitest';
import { decimalUidToHex, KeyboardWedgeDecoder } from './keyboard-wedge-decoder';
import { decodeRawReport } from './raw-report-decoder';

/**
 * Recorded reports. A keyboard-wedge reader typing "04A1B2C3" then Enter: each key is a report with
 * its usage id, followed by an all-released report (how these readers type). Usage ids: '0' 0x27,
 * '4' 0x21, 'a' 0x04, '1' 0x1E, 'b' 0x05, '2' 0x1F, 'c' 0x06, '3' 0x20, Enter 0x28; Shift (0x02 in
 * the modifier byte) for the capitals.
 */
const press = (usage: number, modifiers = 0) => [modifiers, 0, usage, 0, 0, 0, 0, 0];
const release = [0, 0, 0, 0, 0, 0, 0, 0];
const typed = (usages: Array<[number, number?]>) => usages.flatMap(([usage, modifiers]) => [press(usage, modifiers), release]);
const RECORDED_04A1B2C3 = typed([[0x27], [0x21], [0x04, 0x02], [0x1e], [0x05, 0x02], [0x1f], [0x06, 0x02], [0x20], [0x28]]);

describe('KeyboardWedgeDecoder', () => {
  const feed = (reports: number[][], decoder = new KeyboardWedgeDecoder()) => reports.flatMap((report) => decoder.push(report));

  it('turns the key reports of a scan into its UID, ended by Enter', () => {
    expect(feed(RECORDED_04A1B2C3)).toEqual([{ kind: 'uid', text: '04a1b2c3' }]);
  });

  it('reads two scans in a row, keypad digits and keypad Enter too', () => {
    const keypad = typed([[0x62], [0x5c], [0x62], [0x59], [0x62], [0x5a], [0x62], [0x5b], [0x58]]);
    expect(feed([...RECORDED_04A1B2C3, ...keypad])).toEqual([
      { kind: 'uid', text: '04a1b2c3' },
      { kind: 'uid', text: '04010203' },
    ]);
  });

  it('counts a key held across reports once, and the same digit twice only after a release', () => {
    const held = [press(0x27), press(0x27), press(0x27), release, press(0x27), release, press(0x21), release, press(0x21), release, ...typed([[0x1e], [0x1e], [0x1e], [0x1e], [0x28]])];
    expect(feed(held)).toEqual([{ kind: 'uid', text: '00441111' }]);
  });

  it('takes a report id byte in front (9-byte reports) and several keys in one report', () => {
    expect(feed([[1, 0, 0, 0x27, 0x21, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0, 0, 0], [1, 0, 0, 0x28, 0, 0, 0, 0, 0]])).toEqual([{ kind: 'uid', text: '04' }]);
  });

  it('ignores rollover errors and an Enter with nothing typed', () => {
    expect(feed([[0, 0, 1, 1, 1, 1, 1, 1], press(0x28), release])).toEqual([]);
  });

  it('reports keys that are no part of a UID and reports of the wrong size', () => {
    expect(feed([press(0x27), release, press(0x3a), release])).toEqual([{ kind: 'error', message: expect.stringMatching(/unexpected key \(HID usage 0x3a\).*"0"/) }]);
    expect(new KeyboardWedgeDecoder().push([1, 2, 3])).toEqual([{ kind: 'error', message: expect.stringMatching(/3 bytes, expected 8 or 9/) }]);
  });

  it('discards endless typing without Enter', () => {
    const decoder = new KeyboardWedgeDecoder();
    const out = feed(typed(Array.from({ length: 65 }, () => [0x27] as [number])), decoder);
    expect(out).toEqual([{ kind: 'error', message: expect.stringMatching(/more than 64 characters/) }]);
  });
});

describe('decodeRawReport', () => {
  it('reads a length-prefixed UID (recorded 7-byte card, padded report)', () => {
    expect(decodeRawReport([7, 0x04, 0xa1, 0xb2, 0xc3, 0xd4, 0xe5, 0xf6, 0, 0, 0, 0, 0, 0, 0, 0])).toEqual({ kind: 'uid', text: '04A1B2C3D4E5F6' });
  });

  it('skips a report id byte at offset 1', () => {
    expect(decodeRawReport(Buffer.from([0x02, 4, 0xde, 0xad, 0xbe, 0xef, 0]), 1)).toEqual({ kind: 'uid', text: 'DEADBEEF' });
  });

  it('treats length 0 as no card, and refuses impossible lengths', () => {
    expect(decodeRawReport([0, 0, 0, 0])).toEqual({ kind: 'none' });
    expect(decodeRawReport([3, 1, 2, 3])).toEqual({ kind: 'error', message: expect.stringMatching(/outside 4 to 16/) });
    expect(decodeRawReport([8, 1, 2, 3, 4])).toEqual({ kind: 'error', message: expect.stringMatching(/does not fit/) });
    expect(decodeRawReport([])).toEqual({ kind: 'error', message: expect.stringMatching(/too short/) });
  });
});

describe('decimalUidToHex', () => {
  it('turns the decimal card number of a 125 kHz wedge reader into at least 4 hex bytes', () => {
    expect(decimalUidToHex('0012345678')).toBe('00BC614E');
    expect(decimalUidToHex('3735928559')).toBe('DEADBEEF');
    expect(decimalUidToHex('1099511627775')).toBe('FFFFFFFFFF');
    expect(decimalUidToHex('12ab')).toBeNull();
  });
});
