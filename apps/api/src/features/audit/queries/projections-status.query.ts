import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TProjectionsAnswer, TSetAsideEvent } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import { ProjectionsService } from '../../../platform/projections/projections.service';

export class ProjectionsStatusQuery {}

/** the projections screen's table: every read model's position, lag, rate, state and set-aside count */
@QueryHandler(ProjectionsStatusQuery)
export class ProjectionsStatusHandler implements IQueryHandler<ProjectionsStatusQuery, TProjectionsAnswer> {
  constructor(private readonly projections: ProjectionsService) {}

  execute(): Promise<TProjectionsAnswer> {
    return this.projections.status();
  }
}

export const projectionNotFound = () => new DomainError('projection.not_found', 'There is no projection with this name', 'projection');

export class SetAsideEventsQuery {
  constructor(readonly projection: string) {}
}

/** the events one projection set aside, oldest first */
@QueryHandler(SetAsideEventsQuery)
export class SetAsideEventsHandler implements IQueryHandler<SetAsideEventsQuery, TSetAsideEvent[]> {
  constructor(private readonly projections: ProjectionsService) {}

  async execute({ projection }: SetAsideEventsQuery): Promise<TSetAsideEvent[]> {
    const events = await this.projections.setAside(projection);
    if (!events) throw projectionNotFound();
    return events;
  }
}
