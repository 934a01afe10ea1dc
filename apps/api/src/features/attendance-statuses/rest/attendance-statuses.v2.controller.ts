import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { AttendanceStatusRoutes } from './attendance-statuses.routes';

/** v2 wraps answers in `{data}`; also served unprefixed under /api. */
@Controller(['api/v2', 'api'])
export class AttendanceStatusesV2Controller extends AttendanceStatusRoutes {
  constructor(gateway: CommandGateway, queryBus: QueryBus) {
    super(gateway, queryBus);
  }
  protected wrap<T>(value: T): { data: T } {
    return { data: value };
  }
}
