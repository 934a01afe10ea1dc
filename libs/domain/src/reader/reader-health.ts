/**
 * A reader's health: when the server last heard from it and how many scans wait in its local queue.
 *
 * Not an event (docs/adr/0013). A report every few seconds from every reader would be most of the
 * log, would wake every projection and live subscriber, and records no fact anyone replays: what
 * matters later is the scans, and those never depend on health: each one is in the reader's durable
 * queue until the server has acknowledged it into the scan ledger. So the API keeps the latest
 * report in a plain table (last write wins, lost at worst until the next report) and the console
 * reads it through the assessment below.
 */
export interface ReaderHealthReport {
  /** any authenticated request or WS message from the reader, server clock */
  lastContactAt: string | null;
  /** scans in the reader's queue not yet acknowledged, as it last reported */
  queueDepth: number | null;
}

export interface ReaderHealthThresholds {
  /** no contact for this long: 'late' (a missed heartbeat or two) */
  lateAfterSeconds: number;
  /** no contact for this long: 'offline' */
  offlineAfterSeconds: number;
  /** more queued scans than this: the reader cannot deliver as fast as cards come */
  backlogAbove: number;
}

/** The agent's heartbeat is 30 s (contracts: READER_DEFAULT_CONFIGURATION), so 'late' is three missed beats. */
export const DEFAULT_READER_HEALTH_THRESHOLDS: ReaderHealthThresholds = { lateAfterSeconds: 90, offlineAfterSeconds: 300, backlogAbove: 100 };

export type ReaderConnection = 'never' | 'online' | 'late' | 'offline';

export function assessReaderHealth(report: ReaderHealthReport, now: string, thresholds: ReaderHealthThresholds = DEFAULT_READER_HEALTH_THRESHOLDS) {
  let connection: ReaderConnection = 'never';
  if (report.lastContactAt !== null) {
    const silentSeconds = (Date.parse(now) - Date.parse(report.lastContactAt)) / 1000;
    connection = silentSeconds >= thresholds.offlineAfterSeconds ? 'offline' : silentSeconds >= thresholds.lateAfterSeconds ? 'late' : 'online';
  }
  return { connection, backlog: report.queueDepth !== null && report.queueDepth > thresholds.backlogAbove };
}
