import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENT_READ_DECLARATIONS } from '@rollcall/contracts';
import { type CompiledQuery, type DatabaseConnection, DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type Transaction } from 'kysely';
import { describe, expect, it } from 'vitest';
import { allProjections } from '../../all-projections';
import type { StoredEvent } from '../event-store/event-store.port';
import type { ReadDatabase } from '../read-db/read-database';
import type { Projection } from './projection';
import { ProjectionFeeds } from './projection-feeds';

/**
 * A projection is handed only the events of the types it declares (`eventTypes`: the live runner and
 * a rebuild filter by them, projection-feeds.ts), so a type its `apply` handles but does not declare
 * would silently never reach it. Every event type known anywhere (the read declarations of
 * libs/contracts, which a unit test holds to every type the API appends; every projection's own
 * declarations; every type named in a projection's source) is applied to every projection that does
 * not declare it, on a database that records the statements: none may be written, nothing thrown.
 */
const FEATURES = join(__dirname, '../../features');

function projectionSources(): string[] {
  return readdirSync(FEATURES).flatMap((area) => {
    const folder = join(FEATURES, area, 'projections');
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      return [];
    }
    return names.filter((name) => name.endsWith('.ts') && !name.endsWith('.spec.ts')).map((name) => readFileSync(join(folder, name), 'utf8'));
  });
}

/** the quoted words a projection's source compares an event's type with: `case 'X':`, `type === 'X'` */
function typesNamedIn(source: string): string[] {
  return [...source.matchAll(/case '([A-Za-z]+)':|\.type [!=]== '([A-Za-z]+)'/g)].map((match) => match[1] ?? match[2]);
}

function knownEventTypes(projections: readonly Projection[]): string[] {
  const types = new Set(Object.keys(EVENT_READ_DECLARATIONS));
  for (const { eventTypes } of projections) if (eventTypes !== 'all') eventTypes.forEach((type) => types.add(type));
  for (const source of projectionSources()) typesNamedIn(source).forEach((type) => types.add(type));
  return [...types].sort();
}

/** a SQLite-flavoured database that runs nothing and records every statement it is sent */
function recordingDatabase(statements: string[]): Kysely<ReadDatabase> {
  const connection: DatabaseConnection = {
    executeQuery: async <R>(query: CompiledQuery) => {
      statements.push(query.sql);
      return { rows: [] as R[] };
    },
    streamQuery: async function* () {
      // nothing streams here
    },
  };
  class RecordingDriver extends DummyDriver {
    override async acquireConnection(): Promise<DatabaseConnection> {
      return connection;
    }
  }
  return new Kysely<ReadDatabase>({
    dialect: { createAdapter: () => new SqliteAdapter(), createDriver: () => new RecordingDriver(), createIntrospector: (db) => new SqliteIntrospector(db), createQueryCompiler: () => new SqliteQueryCompiler() },
  });
}

const eventOf = (type: string): StoredEvent => ({
  streamId: 'stream-1',
  streamVersion: 0,
  position: { commit: 1, sequence: 1 },
  type,
  data: { accountId: 'a1', organizationId: 'o1' },
  metadata: { eventId: 'e1', actor: 'system', actorKind: 'system', sourceIp: null, correlationId: 'c1', causationId: null, occurredAt: '2026-01-01T00:00:00.000Z' },
  schemaVersion: 1,
});

async function statementsOfApplying(projection: Projection, type: string): Promise<{ statements: string[]; error: unknown }> {
  const statements: string[] = [];
  const db = recordingDatabase(statements);
  let error: unknown = null;
  try {
    await db.transaction().execute((trx: Transaction<ReadDatabase>) => projection.apply(trx, eventOf(type)));
  } catch (failure) {
    error = failure;
  }
  return { statements: statements.filter((text) => !/^(begin|commit|rollback)/i.test(text)), error };
}

describe('the event types each projection declares', () => {
  const projections = allProjections();
  const known = knownEventTypes(projections);

  it('knows the types it checks: the read declarations and what the projections name', () => {
    expect(known.length).toBeGreaterThan(80);
    expect(known).toEqual(expect.arrayContaining(['AccountCreated', 'ArrivalRecorded', 'SessionStarted', 'TeamCreated']));
  });

  it.each(projections.filter((projection) => projection.eventTypes !== 'all').map((projection) => [projection.name, projection] as const))('%s handles no type it does not declare', async (_name, projection) => {
    const declared = new Set(projection.eventTypes);
    const handledButUndeclared: string[] = [];
    for (const type of known) {
      if (declared.has(type)) continue;
      const { statements, error } = await statementsOfApplying(projection, type);
      if (statements.length > 0 || error) handledButUndeclared.push(`${type} (${error ? String(error) : statements[0]})`);
    }
    expect(handledButUndeclared).toEqual([]);
  });

  it('the check sees a handled type: applying a declared one writes', async () => {
    const accounts = projections.find((projection) => projection.name === 'accounts_v2');
    expect(accounts).toBeDefined();
    const { statements } = await statementsOfApplying(accounts as Projection, 'AccountDeleted');
    expect(statements.length).toBeGreaterThan(0);
  });

  it('the event log takes every event, so it declares all', () => {
    expect(projections.find((projection) => projection.name === 'event_log_v1')?.eventTypes).toBe('all');
  });
});

describe('ProjectionFeeds', () => {
  const projection = (name: string, eventTypes: readonly string[] | 'all') => ({ name, eventTypes }) as unknown as Projection;
  const event = (type: string, sequence: number) => ({ ...eventOf(type), position: { commit: sequence, sequence } });

  it('hands each projection the events of its types, in order, and the whole batch to one that takes all', () => {
    const accounts = projection('accounts', ['AccountCreated', 'AccountDeleted']);
    const teams = projection('teams', ['TeamCreated', 'AccountDeleted']);
    const readers = projection('readers', ['DoorReaderRegistered']);
    const log = projection('log', 'all');
    const batch = [event('AccountCreated', 1), event('TeamCreated', 2), event('AccountDeleted', 3), event('Unknown', 4), event('AccountCreated', 5)];
    const feeds = new ProjectionFeeds([accounts, teams, readers, log]).split(batch);
    const positions = (events: StoredEvent[]) => events.map((one) => one.position.sequence);
    expect(feeds.map(([one, events]) => [one.name, positions(events)])).toEqual([
      ['accounts', [1, 3, 5]],
      ['teams', [2, 3]],
      ['readers', []],
      ['log', [1, 2, 3, 4, 5]],
    ]);
    expect(feeds[3][1]).toBe(batch);
  });
});
