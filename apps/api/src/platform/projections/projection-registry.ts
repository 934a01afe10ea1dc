import { Injectable } from '@nestjs/common';
import { allProjections } from '../../all-projections';
import type { Projection } from './projection';

/** The projections this process runs: every read model by default (see all-projections.ts). */
@Injectable()
export class ProjectionRegistry {
  private readonly projections: Projection[] = allProjections();

  register(projection: Projection): void {
    if (this.projections.some((p) => p.name === projection.name)) return;
    this.projections.push(projection);
  }

  all(): readonly Projection[] {
    return this.projections;
  }
}
