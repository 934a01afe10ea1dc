import { type Scan } from '../scans/scan';

/**
 * What every reader driver produces. A bad read is an event, not an exception, so one garbled scan
 * never stops a door; the caller logs it and keeps reading. The node-hid drivers (later issue) will
 * implement the same shape, with reopening an unplugged device kept inside the driver.
 */
export type DriverEvent = { kind: 'scan'; scan: Scan } | { kind: 'error'; message: string };

export interface ScanDriver {
  events(): AsyncIterable<DriverEvent>;
}
