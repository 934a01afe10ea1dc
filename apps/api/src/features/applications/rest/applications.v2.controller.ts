import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { ApplicationsRoutes } from './applications.routes';

/** v2 wraps answers in `{data}`; also served unprefixed under /api. The spec has no v1 application calls. */
@Controller(['api/v2', 'api'])
export class ApplicationsV2Controller extends ApplicationsRoutes {
  constructor(gateway: CommandGateway, queryBus: QueryBus) {
    super(gateway, queryBus);
  }
  protected wrap<T>(value: T): { data: T } {
    return { data: value };
  }
}
