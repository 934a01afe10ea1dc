import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { AccessTokensRoutes } from './access-tokens.routes';

/** v1 answers the bare resource; paged lists are `{data, total, from, to, last_page, current_page, per_page}`. */
@Controller('api/v1')
export class AccessTokensV1Controller extends AccessTokensRoutes {
  constructor(gateway: CommandGateway, queryBus: QueryBus) {
    super(gateway, queryBus);
  }
  protected wrap<T>(value: T): T {
    return value;
  }
}
