import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { AttendanceReportsRoutes } from './attendance-reports.routes';

/** v1 answers the bare resource. */
@Controller('api/v1')
export class AttendanceReportsV1Controller extends AttendanceReportsRoutes {
  constructor(queryBus: QueryBus) {
    super(queryBus);
  }
  protected wrap<T>(value: T): T {
    return value;
  }
}
