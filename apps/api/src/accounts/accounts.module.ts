import { Module } from '@nestjs/common';
import { CreateAccountHandler } from './commands/create-account.handler';
import { GetAccountHandler } from './queries/get-account.query';
import { ListAccountsHandler } from './queries/list-accounts.query';
import { AccountsV1Controller } from './rest/accounts.v1.controller';
import { AccountsV2Controller } from './rest/accounts.v2.controller';

@Module({
  controllers: [AccountsV1Controller, AccountsV2Controller],
  providers: [CreateAccountHandler, ListAccountsHandler, GetAccountHandler],
})
export class AccountsModule {}
