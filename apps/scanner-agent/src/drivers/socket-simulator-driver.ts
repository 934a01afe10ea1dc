import { unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { AsyncQueue } from './async-queue';
import { type DriverEvent, type ScanDriver } from './scan-driver';
import { parseScanLine } from './simulator-driver';

/**
 * The simulator on a local (Unix) socket: a demo or a test connects and writes scan lines, as many
 * connections as it likes, while the daemon runs. Each line is answered `ok` or `error <why>` once it
 * has been parsed (the daemon logs the queued sequence). The socket file is replaced at start.
 */
export class SocketSimulatorDriver implements ScanDriver {
  private server: Server | null = null;
  private readonly queue = new AsyncQueue<DriverEvent>();
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly socketPath: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async *events(): AsyncGenerator<DriverEvent> {
    await this.listen();
    yield* this.queue;
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
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => socket.destroy());
      const lines = createInterface({ input: socket, crlfDelay: Infinity });
      lines.on('line', (line) => {
        const parsed = parseScanLine(line, this.now);
        if (parsed.kind === 'scan') this.queue.push({ kind: 'scan', scan: parsed.scan });
        else if (parsed.kind === 'error') this.queue.push({ kind: 'error', message: parsed.message });
        if (parsed.kind !== 'skip' && socket.writable) socket.write(parsed.kind === 'scan' ? 'ok\n' : `error ${parsed.message}\n`);
      });
    });
    return new Promise((resolve, reject) => {
      this.server?.once('error', reject);
      this.server?.listen(this.socketPath, () => resolve());
    });
  }
}
