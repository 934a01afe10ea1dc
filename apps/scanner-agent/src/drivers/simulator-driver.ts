import { createInterface } from 'node:readline';
import { type Readable } from 'node:stream';
import { z } from 'zod';
import { type Scan, cardUidSchema } from '../scans/scan';
import { type DriverEvent, type ScanDriver } from './scan-driver';

/** An offset (or Z) is required: a bare local time would silently shift by the agent's time zone. */
const deviceTimeSchema = z.iso.datetime({ offset: true, error: 'expected an ISO 8601 time with an offset, e.g. 2026-11-22T08:30:00Z' });

export type ParsedLine = { kind: 'scan'; scan: Scan } | { kind: 'skip' } | { kind: 'error'; message: string };

/**
 * Parses one simulator line: `<cardUid>` or `<cardUid> <ISO device time>`. Blank lines and lines
 * starting with `#` are skipped so scan files can carry comments. A line without a time takes
 * `now()`, as a reader without a clock would.
 */
export function parseScanLine(line: string, now: () => Date = () => new Date()): ParsedLine {
  const trimmed = line.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return { kind: 'skip' };
  const tokens = trimmed.split(/\s+/);
  if (tokens.length > 2) {
    return { kind: 'error', message: `expected "<cardUid>" or "<cardUid> <ISO device time>", got ${tokens.length} fields` };
  }
  const [uidToken, timeToken] = tokens;
  const uid = cardUidSchema.safeParse(uidToken);
  if (!uid.success) return { kind: 'error', message: `card UID ${quote(uidToken)}: ${uid.error.issues[0]?.message}` };
  if (timeToken === undefined) return { kind: 'scan', scan: { cardUid: uid.data, deviceTime: now() } };
  const time = deviceTimeSchema.safeParse(timeToken);
  if (!time.success) return { kind: 'error', message: `device time ${quote(timeToken)}: ${time.error.issues[0]?.message}` };
  return { kind: 'scan', scan: { cardUid: uid.data, deviceTime: new Date(time.data) } };
}

export interface SimulatorDriverOptions {
  now?: () => Date;
}

/**
 * Reads scan lines from a stream (stdin or a file) so tests and demos run without a reader. Bad lines
 * come out as error events and reading goes on. Errors of the stream itself (a missing file, say)
 * reject the iteration: those are not a bad scan but no input at all.
 */
export class SimulatorDriver implements ScanDriver {
  constructor(
    private readonly input: Readable,
    private readonly options: SimulatorDriverOptions = {},
  ) {}

  async *events(): AsyncGenerator<DriverEvent> {
    const now = this.options.now ?? (() => new Date());
    const lines = createInterface({ input: this.input, crlfDelay: Infinity });
    let lineNumber = 0;
    try {
      for await (const line of lines) {
        lineNumber += 1;
        const parsed = parseScanLine(line, now);
        if (parsed.kind === 'scan') yield { kind: 'scan', scan: parsed.scan };
        else if (parsed.kind === 'error') yield { kind: 'error', message: `line ${lineNumber}: ${parsed.message}` };
      }
    } finally {
      lines.close();
    }
  }
}

/** Keeps error messages readable when someone feeds the simulator a binary file or a long line. */
function quote(token: string | undefined): string {
  const text = token ?? '';
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}...` : text);
}
