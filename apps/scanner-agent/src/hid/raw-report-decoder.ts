/**
 * Raw HID readers send the card in an input report of their own. The format these drivers support
 * (the common one): at `offset` (0, or 1 when the device puts a report id first) a length byte n, then
 * n UID bytes; a report whose length byte is 0 means "no card" (card removed) and is no scan.
 */
export type RawOutput = { kind: 'uid'; text: string } | { kind: 'none' } | { kind: 'error'; message: string };

export function decodeRawReport(report: Uint8Array | readonly number[], offset = 0): RawOutput {
  const bytes = Array.from(report);
  if (bytes.length <= offset) return { kind: 'error', message: `report of ${bytes.length} bytes is too short` };
  const length = bytes[offset];
  if (length === 0) return { kind: 'none' };
  if (length < 4 || length > 16) return { kind: 'error', message: `UID length byte ${length} is outside 4 to 16` };
  if (offset + 1 + length > bytes.length) return { kind: 'error', message: `UID of ${length} bytes does not fit a report of ${bytes.length} bytes` };
  const uid = bytes.slice(offset + 1, offset + 1 + length);
  return { kind: 'uid', text: uid.map((byte) => byte.toString(16).padStart(2, '0')).join('').toUpperCase() };
}
