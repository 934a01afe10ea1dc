import { ZApiError, isErrorCode, isFieldRuleCode } from '@rollcall/contracts';
import type { StoredEvent, EventStore } from '../../src/platform/event-store/event-store.port';
import { EVENT_STORE } from '../../src/platform/tokens';
import type { TestApp } from '../test-app';
import { TrpcServer } from '../../src/platform/trpc/trpc-server';

/**
 * Shared checks of the hardening suite (docs/security.md): what a stack trace looks like in an answer, the
 * documented error shape for REST and tRPC, and read access to the event store for the tests that
 * must see what was (or was not) written.
 */

/**
 * A V8 stack frame as Node prints it: `at fn (/abs/file.js:12:34)`, `at fn (file:///...:1:2)`,
 * `at fn (node:internal/...:1:2)`, `at JSON.parse (<anonymous>)` or `at /abs/file.js:1:2`. The
 * location must look like a path: a looser pattern took the fuzzer's own stored titles, echoed back
 * among JSON text with times in it, for frames (100,000-request run of 2026-11-25).
 */
const STACK_FRAME = /\bat (?:(?:async |new )?[\w$.<>[\]]{1,200} \((?:<anonymous>|(?:file:\/\/|node:|\/|[A-Za-z]:\\)[^\s"()]*:\d+:\d+)\)|(?:file:\/\/|node:|\/|[A-Za-z]:\\)[^\s"()]*:\d+:\d+)/;
export function leaksInternals(text: string): string | null {
  if (STACK_FRAME.test(text)) return `a stack frame: ${text.match(STACK_FRAME)![0]}`;
  if (text.includes('node_modules')) return 'a node_modules path';
  if (/\b(?:TypeError|ReferenceError|SyntaxError|RangeError): /.test(text) && !text.startsWith('{')) return 'a raw JavaScript error';
  return null;
}

/** `{error: {code, message, fields?, rules?}}` and nothing else: the one shape of every REST error */
export function restErrorProblem(body: unknown): string | null {
  const parsed = ZApiError.strict().safeParse(body);
  if (!parsed.success) return `not the ApiError shape: ${JSON.stringify(body)?.slice(0, 300)}`;
  const extra = Object.keys((body as { error: object }).error).filter((key) => !['code', 'message', 'fields', 'rules'].includes(key));
  if (extra.length) return `unexpected keys in error: ${extra.join(', ')}`;
  // every message of `fields` has its rule, a code the console has a text for (libs/contracts field-rules.ts)
  const { fields, rules } = parsed.data.error;
  if (Boolean(fields) !== Boolean(rules)) return `fields and rules come together: ${JSON.stringify(body)?.slice(0, 300)}`;
  const messages = Object.entries(fields ?? {}).flatMap(([field, list]) => list.map((message) => `${field}: ${message}`));
  if (rules && messages.join('\n') !== rules.map((rule) => `${rule.field}: ${rule.message}`).join('\n')) return `rules do not follow fields: ${JSON.stringify(body)?.slice(0, 300)}`;
  const unknown = (rules ?? []).filter((rule) => !isFieldRuleCode(rule.code) && !isErrorCode(rule.code));
  if (unknown.length) return `a rule of an unknown code: ${unknown.map((rule) => rule.code).join(', ')}`;
  if (!/^[a-z_]+(\.[a-z_]+)+$/.test(parsed.data.error.code)) return `error code is not a dotted code: ${parsed.data.error.code}`;
  return null;
}

/** a tRPC error answer (single or batched) carries the same ApiError under `error.data.apiError` */
export function trpcErrorProblem(body: unknown): string | null {
  const items = Array.isArray(body) ? body : [body];
  for (const item of items) {
    const error = (item as { error?: { data?: { apiError?: unknown } } } | null)?.error;
    if (!error) continue; // a batch may mix answers and errors
    const problem = restErrorProblem({ error: error.data?.apiError });
    if (problem) return `tRPC error without data.apiError in the documented shape (${problem}): ${JSON.stringify(item).slice(0, 300)}`;
  }
  if (!items.some((item) => (item as { error?: unknown } | null)?.error)) return `a 4xx tRPC answer without an error: ${JSON.stringify(body).slice(0, 300)}`;
  return null;
}

export interface ProcedureInfo {
  name: string;
  type: 'query' | 'mutation' | 'subscription';
  /** the zod schemas given to .input() */
  inputs: unknown[];
}

/** every procedure of the running app's tRPC router, by its dotted name */
export function proceduresOf(app: TestApp): ProcedureInfo[] {
  const procedures = app.app.get(TrpcServer).router._def.procedures as unknown as Record<string, { _def: Omit<ProcedureInfo, 'name'> }>;
  return Object.entries(procedures).map(([name, procedure]) => ({ name, type: procedure._def.type, inputs: procedure._def.inputs }));
}

export const eventStoreOf = (app: TestApp): EventStore => app.app.get<symbol, EventStore>(EVENT_STORE);

/** one stream's events as stored, for version checks */
export const streamOf = (app: TestApp, streamId: string): Promise<StoredEvent[]> => eventStoreOf(app).readStream(streamId);

/** a compact text of the head position, to tell whether anything was appended */
export async function headOf(app: TestApp): Promise<string> {
  const head = await eventStoreOf(app).headPosition();
  return `${head.commit}.${head.sequence}`;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** runs `work` over `items` with at most `limit` in flight */
export async function inPool<T>(items: T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
