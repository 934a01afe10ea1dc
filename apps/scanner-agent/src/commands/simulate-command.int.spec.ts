import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DurableOutbox } from '../outbox/durable-outbox';
import { OUTBOX_FILE_NAME, runSimulate } from './simulate-command';

const capture = () => {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  return { stream, text: () => chunks.join('') };
};

describe('runSimulate (simulator driver into a real outbox)', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = join(mkdtempSync(join(tmpdir(), 'rollcall-simulate-')), 'nested', 'agent-data');
  });
  afterEach(() => rmSync(join(dataDir, '..', '..'), { recursive: true, force: true }));

  it('queues good lines, reports bad ones, and says plainly that nothing was sent', async () => {
    const stdout = capture();
    const stderr = capture();
    const run = (lines: string[]) =>
      runSimulate({ input: Readable.from(lines), dataDir, stdout: stdout.stream, stderr: stderr.stream, now: () => new Date('2026-11-22T09:00:00Z') });

    expect(await run(['04a1b2c3\n', 'nope\n', '0A0B0C0D 2026-11-22T08:00:00Z\n'])).toEqual({ queued: 2, rejected: 1, depth: 2 });
    // a second run appends to the same durable queue
    expect(await run(['0A0B0C0E\n'])).toEqual({ queued: 1, rejected: 0, depth: 3 });

    expect(stdout.text()).toContain('queued #1 04A1B2C3 at 2026-11-22T09:00:00.000Z');
    expect(stdout.text()).toContain('queued #3 0A0B0C0E');
    expect(stdout.text()).toContain('queue depth 3 (oldest unsent #1');
    expect(stdout.text()).toContain("Nothing was sent: 'rollcall-agent run' sends the queue");
    expect(stderr.text()).toMatch(/rejected line 2: card UID "nope"/);

    const outbox = DurableOutbox.open(join(dataDir, OUTBOX_FILE_NAME));
    try {
      expect(outbox.peekBatch(10).map((scan) => scan.cardUid)).toEqual(['04A1B2C3', '0A0B0C0D', '0A0B0C0E']);
    } finally {
      outbox.close();
    }
  });
});
