import { dirname, resolve } from 'node:path';
import type { AppConfig } from '../config/app-config';
import { createEventStore, type EventStoreOptions } from '../event-store/create-event-store';
import type { EventStore } from '../event-store/event-store.port';
import type { PersonalDataKeys } from './personal-data-keys.port';
import { PersonalDataVault } from './personal-data-vault';
import { PostgresPersonalDataKeys } from './postgres-personal-data-keys';
import { SqlitePersonalDataKeys } from './sqlite-personal-data-keys';

/**
 * The event store the API and its command-line tools use: the configured adapter behind the personal
 * data vault (docs/adr/0015). Keys live beside the events; a store that cannot delete (KurrentDB keeps
 * what it is given) keeps them where the read database is, in a file or schema of their own.
 */
export async function openSealedEventStore(config: Pick<AppConfig, 'eventStore' | 'readDb'>, options: EventStoreOptions = {}): Promise<EventStore> {
  const store = await createEventStore(config.eventStore, options);
  try {
    return new PersonalDataVault(store, await openKeys(config));
  } catch (error) {
    await store.close();
    throw error;
  }
}

function openKeys({ eventStore, readDb }: Pick<AppConfig, 'eventStore' | 'readDb'>): Promise<PersonalDataKeys> | PersonalDataKeys {
  if (eventStore.kind === 'sqlite') return new SqlitePersonalDataKeys(eventStore.file);
  if (eventStore.kind === 'postgres') return PostgresPersonalDataKeys.connect(eventStore.url, eventStore.schema);
  return readDb.kind === 'sqlite' ? new SqlitePersonalDataKeys(resolve(dirname(readDb.file), 'personal-data-keys.db')) : PostgresPersonalDataKeys.connect(readDb.url, readDb.schema);
}
