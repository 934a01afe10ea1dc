import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { TAccount } from '@rollcall/contracts';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { AccountsRoutes } from './accounts.routes';

/** v2 wraps answers in `{data}` (a paged list reads body.data.data); one account reads body.data.account. */
@Controller(['api/v2', 'api'])
export class AccountsV2Controller extends AccountsRoutes {
  constructor(gateway: CommandGateway, queryBus: QueryBus) {
    super(gateway, queryBus);
  }
  protected wrap<T>(value: T): { data: T } {
    return { data: value };
  }
  protected wrapAccount(account: TAccount): { data: { account: TAccount } } {
    return { data: { account } };
  }
}
