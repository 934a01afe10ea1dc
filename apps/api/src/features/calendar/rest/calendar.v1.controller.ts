import { Controller, Inject } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { Clock } from '../../../platform/runtime/clock';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { CLOCK } from '../../../platform/tokens';
import { CalendarRoutes } from './calendar.routes';

/** v1 answers the bare resource. */
@Controller('api/v1')
export class CalendarV1Controller extends CalendarRoutes {
  constructor(gateway: CommandGateway, queryBus: QueryBus, @Inject(CLOCK) clock: Clock) {
    super(gateway, queryBus, clock);
  }
  protected wrap<T>(value: T): T {
    return value;
  }
}
