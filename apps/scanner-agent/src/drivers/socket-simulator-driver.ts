import { unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { AsyncQueue } from './async-queue';
import { type Scan } from '../scans/scan';
import { type DriverEvent, type ScanDriver } from './scan-driver';
import { parseScanLine } from './simulator-driver';

/**
 * The simulator on a local (Unix) socket: a demo or a test connects and writes scan lines, as many
 * connections as it likes, while the daemon runs. A scan line is answered `ok` once the scan is
 * committed to the outbox (the reader's beep), `not_taken <why>` when it could not be made durable,
 * and a bad line `error <why>` once parsed. The socket file is replaced at start.
 */
export class SocketSimulatorDriver implements ScanDriver {
  private server: Server | null = null;
  private readonly queue = new AsyncQueue<DriverEvent>();
  private readonly sockets = new Set<Socket>();
  /** who is waiting for each scan's answer */
  private readonly waiting = new Map<Scan, Socket>();

  constructor(
    private readonly socketPath: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async *events(): AsyncGenerator<DriverEvent> {
    await this.listen();
    yield* this.queue;
  }

  acknowledge(scan: Scan): void {
    this.answer(scan, 'ok');
  }

  refuse(scan: Scan, reason: string): void {
    this.answer(scan, `not_taken ${reason.replace(/\s+/g, ' ')}`);
  }

  private answer(scan: Scan, text: string): void {
    const socket = this.waiting.get(scan);
    this.waiting.delete(scan);
    if (socket?.writable) socket.write(`${text}\n`);
  }

  close(): void {
    for (const socket of this.sockets) socket.destroy();
    this.server?.close();
    this.queue.end();
  }

  private listen(): Promise<void> {
    try {
      unlinkSync(this.socketPath);
    } catch {
      // nothing to replace
    }
    this.server = createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => {
        this.sockets.delete(socket);
        for (const [scan, waiting] of this.waiting) if (waiting === socket) this.waiting.delete(scan);
      });
      socket.on('error', () => socket.destroy());
      const lines = createInterface({ input: socket, crlfDelay: Infinity });
      lines.on('line', (line) => {
        const parsed = parseScanLine(line, this.now);
        if (parsed.kind === 'scan') {
          this.waiting.set(parsed.scan, socket);
          this.queue.push({ kind: 'scan', scan: parsed.scan });
        } else if (parsed.kind === 'error') {
          this.queue.push({ kind: 'error', message: parsed.message });
          if (socket.writable) socket.write(`error ${parsed.message}\n`);
        }
      });
    });
    return new Promise((resolve, reject) => {
      this.server?.once('error', reject);
      this.server?.listen(this.socketPath, () => resolve());
    });
  }
}
