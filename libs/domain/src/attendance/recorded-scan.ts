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
  /**
   * how long before the request was sent the card was presented, on the box's monotonic clock
   * (absent from older agents, and when the box rebooted while the scan waited)
   */
  ageMs?: number;
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
 *
 * A clock that jumped while the scan waited (a box without a hardware clock, corrected by NTP before
 * it sent its queue) is not seen by the request's skew. When the agent sends the scan's age on its
 * monotonic clock, the server's receipt minus that age is where the scan belongs on the server's
 * clock: a device time further from it than the limit is not trusted, the scan counts at the placed
 * time and is flagged `clock_skew`. Without an age, a time ahead of the server's receipt by more than
 * the limit cannot be right either: it counts at the receipt and is flagged, like one far behind.
 */
export function measureScanTime(scan: Pick<ReaderScan, 'deviceTime' | 'sentAt' | 'receivedAt' | 'ageMs'>, clockSkewLimitSeconds: number) {
  const limitMs = clockSkewLimitSeconds * 1000;
  const received = instantMs(scan.receivedAt);
  const skewMs = received - instantMs(scan.sentAt);
  const requestSkewed = Math.abs(skewMs) > limitMs;
  const device = instantMs(scan.deviceTime);
  const corrected = requestSkewed ? device + skewMs : device;
  if (typeof scan.ageMs === 'number') {
    const placed = received - scan.ageMs;
    if (!Number.isFinite(corrected) || Math.abs(corrected - placed) > limitMs) return { skewMs, clockSkewed: true, at: isoOf(placed) };
    return { skewMs, clockSkewed: requestSkewed, at: isoOf(corrected) };
  }
  if (corrected - received > limitMs) return { skewMs, clockSkewed: true, at: isoOf(received) };
  return { skewMs, clockSkewed: requestSkewed, at: isoOf(corrected) };
}

/** no door scan happened before this; a device time earlier, with no age to place it, is refused */
export const EARLIEST_SCAN_TIME = '2000-01-01T00:00:00.000Z';

/**
 * Why a scan's time cannot be counted at all, or null: a device time before EARLIEST_SCAN_TIME (a
 * clock at year 1 or 1970) that no monotonic age places. Such a scan is refused on its own
 * (`scan.device_time_impossible`), never with the good scans of its batch, and never a 500.
 */
export function scanTimeProblem(scan: Pick<ReaderScan, 'deviceTime' | 'sentAt' | 'receivedAt' | 'ageMs'>, clockSkewLimitSeconds: number): string | null {
  const at = instantMs(measureScanTime(scan, clockSkewLimitSeconds).at);
  if (!Number.isFinite(at) || at < instantMs(EARLIEST_SCAN_TIME)) {
    return `device_time ${scan.deviceTime} cannot be a scan's time (before ${EARLIEST_SCAN_TIME}) and the reader sent no age to place it: check the door box's clock`;
  }
  return null;
}

/** The scan as kept in an event, with its measured time and flags (clock skew is added here). */
export function recordScan(scan: ReaderScan, clockSkewLimitSeconds: number, flags: ScanFlag[] = []): RecordedScan {
  const { skewMs, clockSkewed, at } = measureScanTime(scan, clockSkewLimitSeconds);
  return { ...scan, skewMs, at, flags: clockSkewed ? ['clock_skew', ...flags] : flags };
}
