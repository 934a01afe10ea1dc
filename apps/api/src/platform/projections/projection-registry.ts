import { Inject, Injectable } from '@nestjs/common';
import type { Projection } from './projection';

/** the read models this process runs, given by the composition root (all-projections.ts) */
export const PROJECTIONS = Symbol('PROJECTIONS');

/** the built file the projection worker thread runs (docs/adr/0026), given by the composition root */
export const PROJECTION_WORKER_SCRIPT = Symbol('PROJECTION_WORKER_SCRIPT');

/** The projections this process runs: every feature's read models, in the composition root's order. */
@Injectable()
export class ProjectionRegistry {
  constructor(@Inject(PROJECTIONS) private readonly projections: readonly Projection[]) {}

  all(): readonly Projection[] {
    return this.projections;
  }
}
