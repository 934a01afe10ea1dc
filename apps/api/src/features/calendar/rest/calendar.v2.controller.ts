import { Controller, Inject } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { Clock } from '../../../platform/runtime/clock';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { CLOCK } from '../../../platform/tokens';
import { CalendarRoutes } from './calendar.routes';

/** v2 wraps answers in `{data}`; also served unprefixed under /api. */
@Controller(['api/v2', 'api'])
export class CalendarV2Controller extends CalendarRoutes {
  constructor(gateway: CommandGateway, queryBus: QueryBus, @Inject(CLOCK) clock: Clock) {
    super(gateway, queryBus, clock);
  }
  protected wrap<T>(value: T): { data: T } {
    return { data: value };
  }
}
