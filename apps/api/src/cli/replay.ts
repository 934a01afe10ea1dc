#!/usr/bin/env node
import { performance } from 'node:perf_hooks';
import { ConfigError, loadConfig } from '../config/app-config';
import { allProjections } from '../projections/all-projections';
import { rebuildProjections } from '../projections/projection-runner';
import { openStorage } from './open-storage';

/**
 * `npm run replay`: rebuild every read model from position 0, with progress on the terminal. Run it
 * while the API is stopped (the API rebuilds into fresh tables and swaps them live with issue 8).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const { store, db, close } = await openStorage(config);
  const head = await store.headPosition();
  const started = performance.now();
  const interactive = process.stdout.isTTY;
  let lastPrint = 0;
  process.stdout.write(`Rebuilding ${allProjections().length} read models from ${config.eventStore.kind} (head ${head.commit}.${head.sequence})\n`);
  const replayed = await rebuildProjections(store, db, allProjections(), (count) => {
    const now = performance.now();
    if (now - lastPrint < 250) return;
    lastPrint = now;
    const rate = Math.round(count / ((now - started) / 1000));
    const line = `  replayed ${count.toLocaleString('en')} events (${rate.toLocaleString('en')} events/s)`;
    process.stdout.write(interactive ? `\r${line}` : `${line}\n`);
  });
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(`${interactive ? '\n' : ''}Done: ${replayed.toLocaleString('en')} events in ${seconds.toFixed(1)} s (${Math.round(replayed / Math.max(seconds, 0.001)).toLocaleString('en')} events/s)\n`);
  await close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `replay failed: ${error instanceof Error ? error.message : String(error)}`}\n`);
  process.exit(1);
});
