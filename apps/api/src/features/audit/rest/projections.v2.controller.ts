import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ZRetrySetAsideInput, ZSetAsideInput, type TProjectionsAnswer, type TRetryAnswer, type TSetAsideEvent } from '@rollcall/contracts';
import { ProjectionsService } from '../../../platform/projections/projections.service';
import { RequirePermission } from '../../../platform/access/permissions';
import { EVERYWHERE } from '../../../platform/access/resource-requirements';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { parseWith } from '../../../platform/http/zod-body';
import { ProjectionsStatusQuery, SetAsideEventsQuery } from '../queries/projections-status.query';
import { retryCommand } from '../commands/retry-set-aside.handler';
import { ZProjectionsAnswer, ZRebuildState, ZRetryAnswer, ZSetAsideEvent } from '@rollcall/contracts';
import { Documented } from '../../../platform/http/openapi/rest-description';

/**
 * The projections screen (ours: not in the spec; docs/api/compat.md, 'Projections'), v2 only: read
 * models are the whole system's, so `projections:manage` must be held everywhere.
 */
@Controller(['api/v2', 'api'])
export class ProjectionsV2Controller {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly gateway: CommandGateway,
    private readonly projections: ProjectionsService,
  ) {}

  /** rebuilds every read model into fresh tables and swaps them in; answers at once, the list shows the progress */
  @Post('projections/rebuild')
  @Documented({ summary: 'Rebuild every read model into fresh tables and swap them in; answers at once, GET projections shows the progress (409 projection.rebuild_running)', answer: ZRebuildState })
  @RequirePermission('projections:manage', EVERYWHERE)
  @HttpCode(202)
  rebuild() {
    return { data: this.projections.startRebuild() };
  }

  @Get('projections')
  @Documented({ summary: "Each read model's position, lag, rate, state, last error and events set aside, and the last rebuild", answer: ZProjectionsAnswer })
  @RequirePermission('projections:manage', EVERYWHERE)
  async list() {
    return { data: await this.queryBus.execute<ProjectionsStatusQuery, TProjectionsAnswer>(new ProjectionsStatusQuery()) };
  }

  @Get('projections/:projection/set-aside')
  @Documented({ summary: 'The events a read model set aside because it could not apply them, oldest first', answer: ZSetAsideEvent.array(), params: ZSetAsideInput })
  @RequirePermission('projections:manage', EVERYWHERE)
  async setAside(@Param() params: Record<string, string>) {
    const { projection } = parseWith(ZSetAsideInput, params);
    return { data: await this.queryBus.execute<SetAsideEventsQuery, TSetAsideEvent[]>(new SetAsideEventsQuery(projection)) };
  }

  @Post('projections/:projection/set-aside/:position/retry')
  @Documented({ summary: 'Apply a set-aside event again: applied, or the new error (it stays set aside)', answer: ZRetryAnswer, params: ZRetrySetAsideInput })
  @RequirePermission('projections:manage', EVERYWHERE)
  @HttpCode(200)
  async retry(@Param() params: Record<string, string>) {
    const { projection, position } = parseWith(ZRetrySetAsideInput, params);
    const outcome = await this.gateway.execute<TRetryAnswer>(retryCommand(projection, position));
    return { data: outcome.value };
  }
}
