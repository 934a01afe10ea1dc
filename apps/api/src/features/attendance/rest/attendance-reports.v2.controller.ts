import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { AttendanceReportsRoutes } from './attendance-reports.routes';

/** v2 wraps answers in `{data}`; also served unprefixed under /api. */
@Controller(['api/v2', 'api'])
export class AttendanceReportsV2Controller extends AttendanceReportsRoutes {
  constructor(queryBus: QueryBus) {
    super(queryBus);
  }
  protected wrap<T>(value: T): { data: T } {
    return { data: value };
  }
}
