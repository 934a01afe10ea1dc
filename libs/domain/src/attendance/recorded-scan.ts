import { instantMs, isoOf } from './time-zone';

/**
 * One scan as the API received it from a reader: what the reader said (card, sequence, its own
 * clock when the card was presented and when it sent the request) and what the server adds (the
 * scan's id, the reader's door at that moment, the server clock on arrival). The contracts checked
 * the shapes; the card UID is already normalised.
 */
export interface ReaderScan {
  /** given by the API; an arrival's slot is named after the scan that opened it */
  scanId: string;
  readerId: string;
  /** the reader's own counter: reader id + sequence is the scan's idempotency key */
  sequence: number;
  door: string;
  cardUid: string;
  /** device clock when the card was presented */
  deviceTime: string;
  /** device clock when the request carrying the scan was sent */
  sentAt: string;
  /** server clock when that request arrived */
  receivedAt: string;
}

/** 'clock_skew': the device clock was off; 'two_doors': the same card at another door moments before */
export type ScanFlag = 'clock_skew' | 'two_doors';

/** A scan as events keep it: the raw times, the measured skew, and the time it counts at. */
export interface RecordedScan extends ReaderScan {
  /** server clock minus device clock, measured on the request (receivedAt - sentAt) */
  skewMs: number;
  /** when the card was presented, as attendance counts it (see measureScanTime) */
  at: string;
  flags: ScanFlag[];
}

/**
 * Skew is measured on the request, not on the scan: a scan queued for an hour while the server was
 * unreachable has a device time an hour before its arrival, yet the device clock may be exact. The
 * request's own send time against the server's receipt time isolates the clock's error (plus a
 * network delay far below the limit).
 *
 * Within the limit the device clock is the best witness of when the card was presented; beyond it
 * the clock is not trusted and its time is corrected by the measured offset. Both raw times stay in
 * the event either way.
 */
export function measureScanTime(scan: Pick<ReaderScan, 'deviceTime' | 'sentAt' | 'receivedAt'>, clockSkewLimitSeconds: number) {
  const skewMs = instantMs(scan.receivedAt) - instantMs(scan.sentAt);
  const clockSkewed = Math.abs(skewMs) > clockSkewLimitSeconds * 1000;
  const device = instantMs(scan.deviceTime);
  return { skewMs, clockSkewed, at: isoOf(clockSkewed ? device + skewMs : device) };
}

/** The scan as kept in an event, with its measured time and flags (clock skew is added here). */
export function recordScan(scan: ReaderScan, clockSkewLimitSeconds: number, flags: ScanFlag[] = []): RecordedScan {
  const { skewMs, clockSkewed, at } = measureScanTime(scan, clockSkewLimitSeconds);
  return { ...scan, skewMs, at, flags: clockSkewed ? ['clock_skew', ...flags] : flags };
}
