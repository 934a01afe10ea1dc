import { Module, type OnModuleInit } from '@nestjs/common';
import { ProjectionRegistry } from '../core/projection-registry';
import { CreateAccountHandler } from './commands/create-account.handler';
import { AccountsProjection } from './projections/accounts.projection';
import { GetAccountHandler } from './queries/get-account.query';
import { ListAccountsHandler } from './queries/list-accounts.query';
import { AccountsV1Controller } from './rest/accounts.v1.controller';
import { AccountsV2Controller } from './rest/accounts.v2.controller';

@Module({
  controllers: [AccountsV1Controller, AccountsV2Controller],
  providers: [AccountsProjection, CreateAccountHandler, ListAccountsHandler, GetAccountHandler],
})
export class AccountsModule implements OnModuleInit {
  constructor(
    private readonly registry: ProjectionRegistry,
    private readonly projection: AccountsProjection,
  ) {}
  onModuleInit(): void {
    this.registry.register(this.projection);
  }
}
