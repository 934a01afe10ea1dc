import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { TAccount } from '@rollcall/contracts';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { AccountsRoutes } from './accounts.routes';

/** v1 answers the bare resource; paged lists are `{data, total, from, to, last_page, current_page, per_page}`. */
@Controller('api/v1')
export class AccountsV1Controller extends AccountsRoutes {
  constructor(gateway: CommandGateway, queryBus: QueryBus) {
    super(gateway, queryBus);
  }
  protected wrap<T>(value: T): T {
    return value;
  }
  protected wrapAccount(account: TAccount): TAccount {
    return account;
  }
}
