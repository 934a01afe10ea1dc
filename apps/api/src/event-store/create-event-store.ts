import type { EventStore } from './event-store.port';
import { PostgresEventStore } from './postgres-event-store';
import { SqliteEventStore } from './sqlite-event-store';

export type EventStoreConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; schema?: string };

/**
 * Opens the configured adapter. Both are ready when the promise resolves: the SQLite file is in WAL mode
 * with its tables, the PostgreSQL schema and tables exist. Fails with EventStoreUnavailableError when the
 * storage cannot be reached.
 */
export function createEventStore(config: { kind: 'sqlite'; file: string }): Promise<SqliteEventStore>;
export function createEventStore(config: { kind: 'postgres'; url: string; schema?: string }): Promise<PostgresEventStore>;
export function createEventStore(config: EventStoreConfig): Promise<EventStore>;
export async function createEventStore(config: EventStoreConfig): Promise<EventStore> {
  switch (config.kind) {
    case 'sqlite':
      return new SqliteEventStore(config.file);
    case 'postgres':
      return PostgresEventStore.connect({ url: config.url, schema: config.schema });
    default: {
      const unknownConfig: never = config;
      throw new Error(`unknown event store kind ${(unknownConfig as { kind: string }).kind}`);
    }
  }
}
