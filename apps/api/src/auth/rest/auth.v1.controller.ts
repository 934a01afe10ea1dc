import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CommandGateway } from '../../core/command-gateway';
import { AuthRoutes } from './auth.routes';

/** v1 answers the bare resource. */
@Controller('api/v1')
export class AuthV1Controller extends AuthRoutes {
  constructor(gateway: CommandGateway, queryBus: QueryBus) {
    super(gateway, queryBus);
  }
  protected wrap<T>(value: T): T {
    return value;
  }
}
