import { type Scan } from '../scans/scan';

/** The reader's condition, for health reports and the log. */
export type DeviceState = 'open' | 'absent' | 'failed' | 'closed';

/**
 * What every reader driver produces. A bad read is an event, not an exception, so one garbled scan
 * never stops a door; the caller logs it and keeps reading. USB drivers also report their device's
 * state (reopening an unplugged device is kept inside the driver).
 */
export type DriverEvent = { kind: 'scan'; scan: Scan } | { kind: 'error'; message: string } | { kind: 'state'; state: DeviceState; detail?: string };

export interface ScanDriver {
  events(): AsyncIterable<DriverEvent>;
  /** stops reading: `events()` ends */
  close?(): Promise<void> | void;
  /**
   * The scan is committed to the outbox: tell the person at the door (a beep or a LED where the reader
   * has one). Called only after the commit, so a signal never promises a scan that could be lost.
   */
  acknowledge?(scan: Scan): void;
  /**
   * The scan could NOT be made durable (the outbox stayed unwritable until the agent gave up): tell
   * the person it was not taken, where the reader can. Never called for a scan that was acknowledged.
   */
  refuse?(scan: Scan, reason: string): void;
}
