import { performance } from 'node:perf_hooks';
import type { AppConfig } from '../platform/config/app-config';
import { comparePositions, formatPosition } from '../platform/event-store/event-store.port';
import { allProjections } from '../all-projections';
import { readCheckpoint } from '../platform/projections/projection-checkpoints';
import { rebuildWithSwap } from '../platform/projections/rebuild-with-swap';
import { openStorage } from './open-storage';

/**
 * What `npm run replay` does (cli/replay.ts): every read model rebuilt from position 0 into fresh
 * tables and swapped in, with progress printed. Ends by checking what it built: every read model's
 * checkpoint in the live read database at the head it replayed to, or it fails loudly
 * (docs/adr/0020, '`npm run replay` builds or fails': on a data directory with `events.db` and no
 * `read.db` it said "Done" and built nothing that the API would trust).
 */
export async function replayReadModels(config: AppConfig, print: (text: string) => void, interactive = false): Promise<number> {
  const { store, db, close } = await openStorage(config);
  try {
    const projections = allProjections();
    const head = await store.headPosition();
    const started = performance.now();
    let lastPrint = 0;
    print(`Rebuilding ${projections.length} read models from ${config.eventStore.kind} (head ${formatPosition(head)})\n`);
    const replayed = await rebuildWithSwap(store, db, config.readDb, projections, {
      // the events file, so the event log copies its rows by SQL (platform/projections/rebuild-with-swap.ts)
      eventStore: config.eventStore,
      onProgress: (count) => {
        const now = performance.now();
        if (now - lastPrint < 250) return;
        lastPrint = now;
        const rate = Math.round(count / ((now - started) / 1000));
        const line = `  replayed ${count.toLocaleString('en')} events (${rate.toLocaleString('en')} events/s)`;
        print(interactive ? `\r${line}` : `${line}\n`);
      },
    });
    const short: string[] = [];
    for (const projection of projections) {
      const checkpoint = await readCheckpoint(db, projection.name);
      if (comparePositions(checkpoint, head) < 0) short.push(`${projection.name} at ${formatPosition(checkpoint)}`);
    }
    if (short.length) throw new Error(`the rebuilt read models stop short of the event head ${formatPosition(head)}: ${short.join(', ')}`);
    const seconds = (performance.now() - started) / 1000;
    print(`${interactive ? '\n' : ''}Done: ${replayed.toLocaleString('en')} events in ${seconds.toFixed(1)} s (${Math.round(replayed / Math.max(seconds, 0.001)).toLocaleString('en')} events/s), ${projections.length} read models at ${formatPosition(head)}\n`);
    return replayed;
  } finally {
    await close();
  }
}
