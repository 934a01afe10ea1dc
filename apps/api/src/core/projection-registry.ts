import { Injectable } from '@nestjs/common';
import type { Projection } from '../projections/projection';

/** Feature modules register their projections here; the runner starts them all. */
@Injectable()
export class ProjectionRegistry {
  private readonly projections: Projection[] = [];

  register(projection: Projection): void {
    if (this.projections.some((p) => p.name === projection.name)) return;
    this.projections.push(projection);
  }

  all(): readonly Projection[] {
    return this.projections;
  }
}
