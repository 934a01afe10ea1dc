#!/usr/bin/env node
import { loadConfig } from '../platform/config/app-config';
import { allProjections } from '../all-projections';
import { ProjectionProgress } from '../platform/projections/projection-progress';
import { ProjectionRunner } from '../platform/projections/projection-runner';
import { openStorage } from './open-storage';

/**
 * Runs every projection from its checkpoint until it has caught up with the store's head, then
 * exits. The crash-safety test kills this process at random points and restarts it.
 */
async function main(): Promise<void> {
  const { store, db, close } = await openStorage(loadConfig());
  const runner = new ProjectionRunner(store, db, allProjections(), new ProjectionProgress(), {
    onError: (name, error) => {
      process.stderr.write(`projection ${name} failed: ${String(error)}\n`);
      process.exit(1);
    },
  });
  await runner.start();
  await runner.catchUp();
  await runner.stop();
  await close();
}

main().catch((error: unknown) => {
  process.stderr.write(`projection run failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
