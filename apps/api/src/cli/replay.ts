#!/usr/bin/env node
import { performance } from 'node:perf_hooks';
import { ConfigError, loadConfig } from '../config/app-config';
import { allProjections } from '../projections/all-projections';
import { rebuildWithSwap } from '../projections/rebuild-with-swap';
import { openStorage } from './open-storage';

/**
 * `npm run replay`: rebuild every read model from position 0 into fresh tables and swap them in, as
 * the console's 'Rebuild' does (projections/rebuild-with-swap.ts), with progress on the terminal. The
 * old tables serve until the swap. A running API keeps its own runner going meanwhile, so prefer the
 * console's 'Rebuild' (or stop the API) when it runs: its runner pauses for the swap, this one cannot.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const { store, db, close } = await openStorage(config);
  const head = await store.headPosition();
  const started = performance.now();
  const interactive = process.stdout.isTTY;
  let lastPrint = 0;
  process.stdout.write(`Rebuilding ${allProjections().length} read models from ${config.eventStore.kind} (head ${head.commit}.${head.sequence})\n`);
  const replayed = await rebuildWithSwap(store, db, config.readDb, allProjections(), { onProgress: (count) => {
    const now = performance.now();
    if (now - lastPrint < 250) return;
    lastPrint = now;
    const rate = Math.round(count / ((now - started) / 1000));
    const line = `  replayed ${count.toLocaleString('en')} events (${rate.toLocaleString('en')} events/s)`;
    process.stdout.write(interactive ? `\r${line}` : `${line}\n`);
  } });
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(`${interactive ? '\n' : ''}Done: ${replayed.toLocaleString('en')} events in ${seconds.toFixed(1)} s (${Math.round(replayed / Math.max(seconds, 0.001)).toLocaleString('en')} events/s)\n`);
  await close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `replay failed: ${error instanceof Error ? error.message : String(error)}`}\n`);
  process.exit(1);
});
