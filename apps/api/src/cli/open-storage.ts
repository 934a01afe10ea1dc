import { mkdirSync } from 'node:fs';
import type { AppConfig } from '../platform/config/app-config';
import { openSealedEventStore } from '../platform/personal-data/open-sealed-event-store';
import { createReadDb } from '../platform/read-db/create-read-db';

/** Event store and read database as the API would open them, for command-line tools. */
export async function openStorage(config: AppConfig) {
  mkdirSync(config.dataDir, { recursive: true });
  const store = await openSealedEventStore(config);
  const readDb = await createReadDb(config.readDb);
  return {
    store,
    db: readDb.db,
    close: async () => {
      await store.close();
      await readDb.close();
    },
  };
}
