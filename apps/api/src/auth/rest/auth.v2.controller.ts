import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CommandGateway } from '../../core/command-gateway';
import { AuthRoutes } from './auth.routes';

/** v2 wraps every answer in `{data}`; it is also served unprefixed under /api. */
@Controller(['api/v2', 'api'])
export class AuthV2Controller extends AuthRoutes {
  constructor(gateway: CommandGateway, queryBus: QueryBus) {
    super(gateway, queryBus);
  }
  protected wrap<T>(value: T): { data: T } {
    return { data: value };
  }
}
