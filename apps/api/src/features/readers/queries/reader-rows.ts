import type { TReader } from '@rollcall/contracts';
import { assessReaderHealth } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

export const readersWithHealth = (db: Kysely<ReadDatabase>) =>
  db
    .selectFrom('readers_v1')
    .leftJoin('reader_health', 'reader_health.reader_id', 'readers_v1.id')
    .select([
      'readers_v1.id',
      'readers_v1.name',
      'readers_v1.door',
      'readers_v1.role',
      'readers_v1.token_prefix',
      'readers_v1.created_at',
      'readers_v1.updated_at',
      'readers_v1.register_mode_account_id',
      'readers_v1.register_mode_expires_at',
      'readers_v1.last_sequence',
      'reader_health.last_contact_at',
      'reader_health.queue_depth',
      'reader_health.oldest_queued_at',
      'reader_health.clock_skew_ms',
      'reader_health.intake_state',
      'reader_health.intake_error',
      'reader_health.intake_since',
      'reader_health.dead_letters',
      'reader_health.last_dead_letter',
    ]);

type ReaderRow = Awaited<ReturnType<ReturnType<typeof readersWithHealth>['execute']>>[number];

/** A row as the console lists it; connection and backlog are judged now (domain: assessReaderHealth). */
export function toReader(row: ReaderRow, now: string): TReader {
  const report = { lastContactAt: row.last_contact_at ?? null, queueDepth: row.queue_depth === null || row.queue_depth === undefined ? null : Number(row.queue_depth) };
  const health = assessReaderHealth(report, now);
  return {
    id: row.id,
    name: row.name,
    door: row.door,
    role: row.role,
    token_prefix: row.token_prefix ? `${row.token_prefix}…` : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_contact_at: report.lastContactAt,
    queue_depth: report.queueDepth,
    connection: health.connection,
    backlog: health.backlog,
    register_mode: row.register_mode_account_id && row.register_mode_expires_at ? { account_id: row.register_mode_account_id, expires_at: row.register_mode_expires_at } : null,
    last_sequence: Number(row.last_sequence),
    oldest_queued_at: row.oldest_queued_at ?? null,
    clock_skew_ms: row.clock_skew_ms === null || row.clock_skew_ms === undefined ? null : Number(row.clock_skew_ms),
    intake: row.intake_state ? { state: row.intake_state as NonNullable<TReader['intake']>['state'], error: row.intake_error ?? null, since: row.intake_since ?? null } : null,
    dead_letters: row.dead_letters === null || row.dead_letters === undefined ? null : Number(row.dead_letters),
    last_dead_letter: parseDeadLetter(row.last_dead_letter),
  };
}

function parseDeadLetter(text: string | null | undefined): TReader['last_dead_letter'] {
  if (!text) return null;
  try {
    return JSON.parse(text) as TReader['last_dead_letter'];
  } catch {
    return null;
  }
}
