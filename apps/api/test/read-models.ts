import { type Kysely, sql } from 'kysely';
import type { ReadDatabase } from '../src/platform/read-db/read-database';

/** tables the API keeps beside the read models, never rebuilt from events (sessions' tokens, mails, OIDC state, reader health, usage counters, passkey ceremonies in flight) */
export const NOT_REBUILT = new Set(['mail_outbox_v1', 'oidc_store', 'access_token_usage', 'reader_health', 'projection_set_aside', 'session_activity', 'passkey_ceremonies', 'spent_sign_in_challenges']);

/**
 * Every table of the read database but those, each as its rows in a fixed order; checkpoints without
 * their clock column. Two read databases hold the same read models when these are equal (shared by
 * the rebuild test and the crash-safety test).
 */
export async function readModels(db: Kysely<ReadDatabase>, kind: 'sqlite' | 'postgres', schema: string): Promise<Record<string, string[]>> {
  const tables =
    kind === 'sqlite'
      ? (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`.execute(db)).rows.map((row) => row.name)
      : (await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ${schema} AND table_name NOT LIKE 'es\\_%' AND table_name <> 'pd_keys'`.execute(db)).rows.map((row) => row.name);
  const models: Record<string, string[]> = {};
  for (const table of tables.filter((name) => !NOT_REBUILT.has(name)).sort()) {
    const rows = (await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(db)).rows;
    models[table] = rows.map((row) => JSON.stringify(table === 'projection_checkpoints' ? { ...row, updated_at: undefined } : row, Object.keys(row).sort())).sort();
  }
  return models;
}
