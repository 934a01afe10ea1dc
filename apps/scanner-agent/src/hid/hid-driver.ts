import { type DeviceSelector } from '../config/agent-config';
import { AsyncQueue } from '../drivers/async-queue';
import { type DeviceState, type DriverEvent, type ScanDriver } from '../drivers/scan-driver';
import { cardUidSchema } from '../scans/scan';
import { backoffDelay, sleep } from '../sender/backoff';
import { decimalUidToHex, KeyboardWedgeDecoder } from './keyboard-wedge-decoder';
import { decodeRawReport } from './raw-report-decoder';

/** The part of node-hid this driver uses (injectable for tests). */
export interface HidDeviceInfo {
  vendorId: number;
  productId: number;
  path?: string;
  product?: string;
  manufacturer?: string;
  serialNumber?: string;
  interface: number;
  usagePage?: number;
  usage?: number;
}
export interface HidHandle {
  on(event: 'data', listener: (data: Buffer) => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  write(data: number[]): Promise<number>;
  close(): Promise<void>;
}
export interface HidModule {
  devicesAsync(): Promise<HidDeviceInfo[]>;
  HIDAsync: { open(path: string, options?: { nonExclusive?: boolean }): Promise<HidHandle> };
  setDriverType(type: 'hidraw' | 'libusb'): void;
}

export type HidMode = 'keyboard' | 'raw';

export interface HidDriverOptions {
  mode: HidMode;
  device: DeviceSelector;
  /** node-hid, or a stand-in; loaded lazily so the simulator needs no libusb */
  hid?: HidModule;
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** keyboard-wedge readers: hex bytes (default) or one decimal number */
  uidFormat?: 'hex' | 'decimal';
  /** raw readers: where the UID length byte is (1 when the device sends a report id first) */
  rawOffset?: number;
  /**
   * Output report written after each scan is queued (the reader's beep or LED, device specific; the
   * first byte is the report id, 0 when the device uses none). None: the reader's own beep is all.
   */
  feedbackReport?: number[];
  /** Output report written when a scan could not be stored (the reader's error beep or red LED). */
  refusedReport?: number[];
  now?: () => Date;
}

/** boot keyboards: Generic Desktop page, Keyboard usage */
export const isKeyboardInterface = (device: HidDeviceInfo) => device.usagePage === 0x01 && device.usage === 0x06;

export const hex4 = (id: number) => id.toString(16).padStart(4, '0');

let loaded: Promise<HidModule> | null = null;
/**
 * Keyboard-wedge readers are opened through libusb, which detaches the kernel's keyboard driver from
 * the reader: that is what keeps UIDs from being typed into a console or a login prompt (hidraw
 * would read the reports while the kernel kept typing them). Raw readers type nothing: hidraw.
 * node-hid loads one backend per process, so the first mode wins.
 */
export function loadNodeHid(mode: HidMode): Promise<HidModule> {
  loaded ??= import('node-hid').then((module) => {
    const hid = ((module as { default?: unknown }).default ?? module) as HidModule;
    hid.setDriverType(mode === 'keyboard' ? 'libusb' : 'hidraw');
    return hid;
  });
  return loaded;
}

/** Picks the device the configuration names: its path, or vendor and product id (the keyboard interface for wedge readers). */
export function selectDevice(devices: HidDeviceInfo[], selector: DeviceSelector, mode: HidMode): HidDeviceInfo | undefined {
  const matches = devices.filter((device) =>
    selector.path !== undefined ? device.path === selector.path : device.vendorId === selector.vendorId && device.productId === selector.productId,
  );
  return matches.find((device) => (mode === 'keyboard' ? isKeyboardInterface(device) : !isKeyboardInterface(device))) ?? matches[0];
}

/**
 * A USB card reader through node-hid, with its supervisor: it finds the configured device, opens it,
 * decodes its reports into scans, and when the device is unplugged or fails, reports it and tries
 * again with backoff (1 s doubling to 30 s, with jitter) until it is back. State changes come out as
 * events so the agent logs them and puts them in its health reports.
 */
export class HidDriver implements ScanDriver {
  private closed = false;
  private readonly closing = new AbortController();
  private handle: HidHandle | null = null;
  private lastState: DeviceState | null = null;
  private queue: AsyncQueue<DriverEvent> | null = null;

  constructor(private readonly options: HidDriverOptions) {}

  async *events(): AsyncGenerator<DriverEvent> {
    const queue = new AsyncQueue<DriverEvent>();
    this.queue = queue;
    const supervisor = this.supervise(queue);
    try {
      yield* queue;
    } finally {
      this.closed = true;
      this.closing.abort();
      await supervisor;
    }
  }

  acknowledge(): void {
    const report = this.options.feedbackReport;
    if (!report || !this.handle) return;
    // best effort: a reader that refuses the report still has the scan safely queued
    this.handle.write(report).catch((error: unknown) => this.queue?.push({ kind: 'error', message: `the reader refused the feedback report: ${message(error)}` }));
  }

  refuse(): void {
    const report = this.options.refusedReport;
    if (!report || !this.handle) return;
    this.handle.write(report).catch((error: unknown) => this.queue?.push({ kind: 'error', message: `the reader refused the 'not taken' report: ${message(error)}` }));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.closing.abort();
    await this.handle?.close().catch(() => undefined);
  }

  private state(queue: AsyncQueue<DriverEvent>, state: DeviceState, detail?: string): void {
    if (state === this.lastState && state !== 'open') return;
    this.lastState = state;
    queue.push({ kind: 'state', state, detail });
  }

  private async supervise(queue: AsyncQueue<DriverEvent>): Promise<void> {
    const { mode, device: selector } = this.options;
    const wanted = selector.path ?? `${hex4(selector.vendorId ?? 0)}:${hex4(selector.productId ?? 0)}`;
    let failures = 0;
    try {
      const hid = this.options.hid ?? (await loadNodeHid(mode));
      while (!this.closed) {
        let info: HidDeviceInfo | undefined;
        try {
          info = selectDevice(await hid.devicesAsync(), selector, mode);
        } catch (error) {
          this.state(queue, 'failed', `cannot list HID devices: ${message(error)}`);
        }
        if (info?.path === undefined) {
          if (info === undefined) this.state(queue, 'absent', `no HID device ${wanted}`);
        } else {
          try {
            this.handle = await hid.HIDAsync.open(info.path, { nonExclusive: false });
            failures = 0;
            this.state(queue, 'open', `${wanted} ${info.product ?? ''} at ${info.path}`.trim());
            const ended = await this.read(this.handle, queue);
            await this.handle.close().catch(() => undefined);
            this.handle = null;
            if (this.closed) break;
            this.state(queue, 'failed', `device ${wanted} stopped: ${ended}`);
          } catch (error) {
            this.handle = null;
            this.state(queue, 'failed', `cannot open ${info.path}: ${message(error)} (permissions: see infra/udev/99-rollcall-readers.rules)`);
          }
        }
        failures += 1;
        await sleep(backoffDelay(failures, this.options.retryBaseMs ?? 1000, this.options.retryMaxMs ?? 30_000, () => 0.5 + Math.random() / 2), this.closing.signal);
      }
    } catch (error) {
      // node-hid itself could not load (no libusb): nothing to retry
      this.state(queue, 'failed', `node-hid is not usable here: ${message(error)} (Debian: apt-get install libusb-1.0-0)`);
    }
    this.state(queue, 'closed');
    queue.end();
  }

  /** Reads until the device errors (unplugged) or the driver closes; answers why it ended. */
  private read(handle: HidHandle, queue: AsyncQueue<DriverEvent>): Promise<string> {
    const now = this.options.now ?? (() => new Date());
    const wedge = new KeyboardWedgeDecoder();
    const emit = (text: string) => {
      const uid = cardUidSchema.safeParse(text.replace(/[\s:-]/g, ''));
      if (uid.success) queue.push({ kind: 'scan', scan: { cardUid: uid.data, deviceTime: now() } });
      else queue.push({ kind: 'error', message: `reader sent ${JSON.stringify(text)}: ${uid.error.issues[0]?.message}` });
    };
    return new Promise((resolve) => {
      this.closing.signal.addEventListener('abort', () => resolve('closed'), { once: true });
      handle.on('error', (error) => resolve(message(error)));
      handle.on('data', (data) => {
        if (this.options.mode === 'keyboard') {
          for (const output of wedge.push(data)) {
            if (output.kind === 'uid' && this.options.uidFormat === 'decimal') {
              const hex = decimalUidToHex(output.text);
              if (hex) emit(hex);
              else queue.push({ kind: 'error', message: `reader typed ${JSON.stringify(output.text)}, not a decimal card number (ROLLCALL_AGENT_UID_FORMAT=decimal)` });
            } else if (output.kind === 'uid') emit(output.text);
            else queue.push({ kind: 'error', message: output.message });
          }
          return;
        }
        const output = decodeRawReport(data, this.options.rawOffset ?? 0);
        if (output.kind === 'uid') emit(output.text);
        else if (output.kind === 'error') queue.push({ kind: 'error', message: output.message });
      });
    });
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
