import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import type { EventStoreConfig } from '../event-store/create-event-store';
import type { EventStore, Position } from '../event-store/event-store.port';
import { createReadDb, type ReadDbConfig } from '../read-db/create-read-db';
import type { ReadDatabase } from '../read-db/read-database';
import type { Projection } from './projection';
import { ensureCheckpointTable } from './projection-checkpoints';
import { rebuildProjections, replayInto } from './projection-runner';
import { ensureSetAsideTable } from './set-aside';

/** bookkeeping tables: their rows for the rebuilt projections are copied, the tables themselves stay */
const BOOKKEEPING = ['projection_checkpoints', 'projection_set_aside'] as const;

export interface RebuildHooks {
  /**
   * the configuration of the store being read, where a decorator hides it (the personal data vault): on
   * SQLite the rebuild then reads its rows by SQL too (stored-event-rows.ts)
   */
  eventStore?: EventStoreConfig;
  /** events replayed into the fresh tables so far */
  onProgress?: (replayed: number) => void;
  /** the fresh tables reached the head once: stop writing the live ones (the API pauses its runner) */
  beforeSwap?: () => Promise<void>;
  /** the fresh tables serve now (the API resumes its runner from their checkpoints) */
  afterSwap?: () => Promise<void>;
}

/**
 * Rebuilds projections into fresh tables and swaps them in, while the old tables keep serving
 * (docs/running-in-production.md, 'Upgrades'): the fresh tables live in a database of their own (a
 * file beside the SQLite read file, or a schema beside the PostgreSQL one) and are filled from
 * position 0 up to the head; then `beforeSwap` stops the live writers, the events appended meanwhile
 * are applied to the fresh tables, and one transaction replaces the live tables by the fresh ones
 * with their checkpoints. Readers wait only for that transaction. Returns the events replayed.
 */
export async function rebuildWithSwap(store: EventStore, main: Kysely<ReadDatabase>, config: ReadDbConfig, projections: readonly Projection[], hooks: RebuildHooks = {}): Promise<number> {
  const fresh = shadowOf(config);
  // Every table the swap drops and fills must exist in the live database first. A read database that
  // never ran a projection (`npm run replay` beside an events.db alone) has none, and SQLite resolves an
  // unqualified name to the attached file's table when main has none: the swap then dropped the
  // rebuilt tables themselves and left the live file empty, saying "Done" (docs/adr/0020).
  await ensureCheckpointTable(main);
  await ensureSetAsideTable(main);
  for (const projection of projections) await projection.setup(main);
  await dropShadow(main, fresh);
  if (fresh.kind === 'postgres') await sql`CREATE SCHEMA ${sql.id(fresh.schema)}`.execute(main);
  // a scratch file on SQLite: written once, without WAL or fsync (create-read-db.ts)
  const shadow = await createReadDb(fresh, { scratch: true });
  let replayed = 0;
  let swapping = false;
  try {
    replayed = await rebuildProjections(store, shadow.db, projections, { onProgress: hooks.onProgress, eventStore: hooks.eventStore });
    swapping = true;
    await hooks.beforeSwap?.();
    try {
      // what was appended while the fresh tables were filled: the live ones hold it, the fresh ones now too
      const tail = await replayInto(store, shadow.db, projections, await lowestCheckpoint(shadow.db, projections), { onProgress: (count) => hooks.onProgress?.(replayed + count), eventStore: hooks.eventStore });
      replayed += tail;
      // SQLite attaches the file to the live connection: it must be whole on disk (closed, its pages written)
      await shadow.close();
      await (fresh.kind === 'sqlite' ? swapSqlite(main, fresh.file, projections) : swapPostgres(main, fresh.schema, projections));
    } finally {
      await hooks.afterSwap?.();
    }
  } finally {
    if (!swapping) await shadow.close();
    await dropShadow(main, fresh).catch(() => undefined);
  }
  return replayed;
}

function shadowOf(config: ReadDbConfig): ReadDbConfig {
  if (config.kind === 'sqlite') return { kind: 'sqlite', file: join(dirname(config.file), 'read.rebuild.db') };
  return { ...config, schema: `${config.schema}_rebuild`.slice(0, 63) };
}

async function dropShadow(main: Kysely<ReadDatabase>, fresh: ReadDbConfig): Promise<void> {
  if (fresh.kind === 'postgres') {
    await sql`DROP SCHEMA IF EXISTS ${sql.id(fresh.schema)} CASCADE`.execute(main);
    return;
  }
  for (const suffix of ['', '-wal', '-shm']) rmSync(fresh.file + suffix, { force: true });
}

/** where every rebuilt projection has reached: each applied everything up to the same head */
async function lowestCheckpoint(db: Kysely<ReadDatabase>, projections: readonly Projection[]): Promise<Position> {
  const rows = await db
    .selectFrom('projection_checkpoints')
    .select(['position_commit', 'position_sequence'])
    .where(
      'projection',
      'in',
      projections.map((projection) => projection.name),
    )
    .execute();
  const positions = rows.map((row) => ({ commit: Number(row.position_commit), sequence: Number(row.position_sequence) }));
  // a projection with no checkpoint saw no event of its types: the replay's own head bounds it
  return positions.reduce((low, p) => (p.commit < low.commit || (p.commit === low.commit && p.sequence < low.sequence) ? p : low), positions[0] ?? { commit: 0, sequence: 0 });
}

async function swapSqlite(main: Kysely<ReadDatabase>, file: string, projections: readonly Projection[]): Promise<void> {
  await sql`ATTACH DATABASE ${file} AS rebuilt`.execute(main);
  try {
    await main.transaction().execute(async (trx) => {
      for (const projection of projections) await projection.drop(trx);
      const objects = await sql<{ type: string; name: string; tbl_name: string; sql: string }>`
        SELECT type, name, tbl_name, sql FROM rebuilt.sqlite_master
        WHERE sql IS NOT NULL AND type IN ('table', 'index') AND tbl_name NOT IN (${sql.join(BOOKKEEPING)}) AND name NOT LIKE 'sqlite_%'
        ORDER BY type = 'index'`.execute(trx);
      for (const object of objects.rows) {
        // the very statement that made it in the fresh file makes it in the live one
        await sql.raw(object.sql).execute(trx);
        if (object.type === 'table') await sql`INSERT INTO main.${sql.id(object.name)} SELECT * FROM rebuilt.${sql.id(object.name)}`.execute(trx);
      }
      await copyBookkeeping(trx, 'rebuilt', projections);
    });
  } finally {
    await sql`DETACH DATABASE rebuilt`.execute(main);
  }
}

async function swapPostgres(main: Kysely<ReadDatabase>, schema: string, projections: readonly Projection[]): Promise<void> {
  await main.transaction().execute(async (trx) => {
    for (const projection of projections) await projection.drop(trx);
    const tables = await sql<{ table_name: string }>`
      SELECT table_name FROM information_schema.tables WHERE table_schema = ${schema} AND table_name NOT IN (${sql.join(BOOKKEEPING)})`.execute(trx);
    const live = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(trx);
    // a table moves with its indexes and constraints: nothing is copied
    for (const { table_name } of tables.rows) await sql`ALTER TABLE ${sql.id(schema, table_name)} SET SCHEMA ${sql.id(live.rows[0].schema)}`.execute(trx);
    await copyBookkeeping(trx, schema, projections);
  });
}

async function copyBookkeeping(trx: Kysely<ReadDatabase>, from: string, projections: readonly Projection[]): Promise<void> {
  const names = projections.map((projection) => projection.name);
  for (const table of BOOKKEEPING) {
    await trx.deleteFrom(table).where('projection', 'in', names).execute();
    await sql`INSERT INTO ${sql.id(table)} SELECT * FROM ${sql.id(from, table)} WHERE projection IN (${sql.join(names)})`.execute(trx);
  }
}
