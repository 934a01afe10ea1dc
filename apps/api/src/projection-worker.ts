import 'reflect-metadata';
import { allProjections } from './all-projections';
import { runProjectionWorker } from './platform/projections/run-projection-worker';

/** The projection worker thread's entry (docs/adr/0026): every read model of the product. */
runProjectionWorker(allProjections()).catch((error: unknown) => {
  // the main thread sees the worker exit and starts it again after a backoff
  console.error('projection worker failed to start:', error);
  process.exit(1);
});
