#!/usr/bin/env node
import { ConfigError, loadConfig } from '../platform/config/app-config';
import { replayReadModels } from './replay-read-models';

/**
 * `npm run replay`: rebuild every read model from position 0 into fresh tables and swap them in, as
 * the console's 'Rebuild' does (projections/rebuild-with-swap.ts), with progress on the terminal. The
 * old tables serve until the swap. A running API keeps its own runner going meanwhile, so prefer the
 * console's 'Rebuild' (or stop the API) when it runs: its runner pauses for the swap, this one cannot.
 */
async function main(): Promise<void> {
  await replayReadModels(loadConfig(), (text) => process.stdout.write(text), process.stdout.isTTY);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `replay failed: ${error instanceof Error ? error.message : String(error)}`}\n`);
  process.exit(1);
});
