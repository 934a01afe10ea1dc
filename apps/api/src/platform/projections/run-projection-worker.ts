import { parentPort, workerData } from 'node:worker_threads';
import type { Position } from '../event-store/event-store.port';
import { WakeSignal } from '../event-store/polling-subscription';
import { openSealedEventStore } from '../personal-data/open-sealed-event-store';
import { createReadDb } from '../read-db/create-read-db';
import type { Projection } from './projection';
import { ProjectionProgress } from './projection-progress';
import { ProjectionRunner } from './projection-runner';
import { toFailureMessage, type FromProjectionWorker, type ProjectionWorkerData, type ToProjectionWorker } from './projection-worker-protocol';

/**
 * The projection worker's body (docs/adr/0026): the same ProjectionRunner the main thread would run,
 * on its own connections to the events and the read database, telling the main thread each commit.
 * The composition root's `projection-worker.ts` calls it with every projection of the product.
 */
export async function runProjectionWorker(projections: readonly Projection[]): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('runProjectionWorker runs in a worker thread');
  const { config } = workerData as ProjectionWorkerData;
  const post = (message: FromProjectionWorker) => port.postMessage(message);

  // the main thread announces its appends: the subscription reads at once instead of at the next poll
  const wake = new WakeSignal();
  const store = await openSealedEventStore(config, { sqlite: { wake } });
  const readDb = await createReadDb(config.readDb);
  const progress = new ProjectionProgress();

  // one message per turn of the event loop, however many projections committed in it
  let committed = new Map<string, Position>();
  let flushing = false;
  progress.onAdvanced((projection) => {
    committed.set(projection, progress.positionOf(projection));
    if (flushing) return;
    flushing = true;
    setImmediate(() => {
      flushing = false;
      const positions = [...committed];
      committed = new Map();
      post({ type: 'committed', positions });
    });
  });

  const runner = new ProjectionRunner(store, readDb.db, projections, progress, {
    onError: (projection, error) => post({ type: 'failed', projection, error: toFailureMessage(error) }),
    onRecovered: () => post({ type: 'recovered' }),
    onSetAside: (projection, event) => post({ type: 'set-aside', projection, event: { position: event.position, type: event.type, streamId: event.streamId } }),
    onRebuildingAhead: (message) => post({ type: 'rebuilding-ahead', message }),
  });

  port.on('message', (message: ToProjectionWorker) => {
    if (message.type === 'appended') wake.notify();
    else if (message.type === 'stop') {
      void (async () => {
        await runner.stop();
        await store.close();
        await readDb.close();
        post({ type: 'stopped' });
        port.close();
      })();
    }
  });

  await runner.start();
  post({ type: 'started' });
}
