import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { AttendanceStatusReadRoutes } from './attendance-statuses.routes';

/** v1 answers the bare resource; the spec lists only the read under v1. */
@Controller('api/v1')
export class AttendanceStatusesV1Controller extends AttendanceStatusReadRoutes {
  constructor(gateway: CommandGateway, queryBus: QueryBus) {
    super(gateway, queryBus);
  }
  protected wrap<T>(value: T): T {
    return value;
  }
}
