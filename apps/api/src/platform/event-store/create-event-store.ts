import type { EventStore } from './event-store.port';
import type { KurrentDbEventStore } from './kurrentdb-event-store';
import { PostgresEventStore } from './postgres-event-store';
import { SqliteEventStore, type SqliteEventStoreOptions } from './sqlite-event-store';

export type EventStoreConfig =
  | { kind: 'sqlite'; file: string }
  | { kind: 'postgres'; url: string; schema?: string }
  | { kind: 'kurrentdb'; url: string };

/** adapter-specific settings a caller may give beside the configuration */
export interface EventStoreOptions {
  sqlite?: SqliteEventStoreOptions;
}

/**
 * Opens the configured adapter. Each is ready when the promise resolves: the SQLite file is in WAL mode
 * with its tables, the PostgreSQL schema and tables exist, KurrentDB answered a read of `$all`. Fails
 * with EventStoreUnavailableError when the storage cannot be reached.
 */
export function createEventStore(config: { kind: 'sqlite'; file: string }, options?: EventStoreOptions): Promise<SqliteEventStore>;
export function createEventStore(config: { kind: 'postgres'; url: string; schema?: string }, options?: EventStoreOptions): Promise<PostgresEventStore>;
export function createEventStore(config: { kind: 'kurrentdb'; url: string }, options?: EventStoreOptions): Promise<KurrentDbEventStore>;
export function createEventStore(config: EventStoreConfig, options?: EventStoreOptions): Promise<EventStore>;
export async function createEventStore(config: EventStoreConfig, options: EventStoreOptions = {}): Promise<EventStore> {
  switch (config.kind) {
    case 'sqlite':
      return new SqliteEventStore(config.file, options.sqlite);
    case 'postgres':
      return PostgresEventStore.connect({ url: config.url, schema: config.schema });
    case 'kurrentdb': {
      // Loaded only when configured: the client brings gRPC and a native module the other stores never need.
      const { KurrentDbEventStore } = await import('./kurrentdb-event-store.js');
      return KurrentDbEventStore.connect({ url: config.url });
    }
    default: {
      const unknownConfig: never = config;
      throw new Error(`unknown event store kind ${(unknownConfig as { kind: string }).kind}`);
    }
  }
}
