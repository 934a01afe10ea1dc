import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { TeamsRoutes } from './teams.routes';

/** v1 answers the bare resource. */
@Controller('api/v1')
export class TeamsV1Controller extends TeamsRoutes {
  constructor(gateway: CommandGateway, queryBus: QueryBus) {
    super(gateway, queryBus);
  }
  protected wrap<T>(value: T): T {
    return value;
  }
}
