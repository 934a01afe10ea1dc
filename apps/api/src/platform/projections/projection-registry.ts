import { Inject, Injectable } from '@nestjs/common';
import type { Projection } from './projection';

/** the read models this process runs, given by the composition root (all-projections.ts) */
export const PROJECTIONS = Symbol('PROJECTIONS');

/** The projections this process runs: every feature's read models, in the composition root's order. */
@Injectable()
export class ProjectionRegistry {
  constructor(@Inject(PROJECTIONS) private readonly projections: readonly Projection[]) {}

  all(): readonly Projection[] {
    return this.projections;
  }
}
