import { join } from 'node:path';
import { type Readable, type Writable } from 'node:stream';
import { SimulatorDriver } from '../drivers/simulator-driver';
import { DurableOutbox } from '../outbox/durable-outbox';
import { ensurePrivateDataDir } from '../outbox/private-files';

export const OUTBOX_FILE_NAME = 'outbox.db';

export interface SimulateOptions {
  input: Readable;
  dataDir: string;
  stdout: Writable;
  stderr: Writable;
  now?: () => Date;
}

export interface SimulateResult {
  queued: number;
  rejected: number;
  depth: number;
}

/**
 * Feeds simulator lines into the durable outbox and reports the queue. Nothing is sent (that is
 * `run`), and it says so, since the scans really are still waiting.
 */
export async function runSimulate(options: SimulateOptions): Promise<SimulateResult> {
  const { stdout, stderr } = options;
  ensurePrivateDataDir(options.dataDir);
  const outboxPath = join(options.dataDir, OUTBOX_FILE_NAME);
  const outbox = DurableOutbox.open(outboxPath, { now: options.now });
  let queued = 0;
  let rejected = 0;
  try {
    const driver = new SimulatorDriver(options.input, { now: options.now });
    for await (const event of driver.events()) {
      if (event.kind === 'error') {
        rejected += 1;
        stderr.write(`rejected ${event.message}\n`);
        continue;
      }
      if (event.kind !== 'scan') continue;
      const queuedScan = outbox.enqueue(event.scan);
      queued += 1;
      stdout.write(`queued #${queuedScan.sequence} ${queuedScan.cardUid} at ${queuedScan.deviceTime.toISOString()}\n`);
    }
    const depth = outbox.depth();
    const oldest = outbox.oldestUnsent();
    stdout.write(`${queued} queued, ${rejected} rejected; queue depth ${depth}`);
    stdout.write(oldest ? ` (oldest unsent #${oldest.sequence}, queued ${oldest.enqueuedAt.toISOString()})\n` : '\n');
    stdout.write(`outbox: ${outboxPath}\n`);
    stdout.write("Nothing was sent: 'rollcall-agent run' sends the queue to the server.\n");
    return { queued, rejected, depth };
  } finally {
    outbox.close();
  }
}
