import { Module } from '@nestjs/common';
import { ChangeProfilePictureHandler } from './commands/change-profile-picture.handler';
import { CreateAccountHandler } from './commands/create-account.handler';
import { DeleteAccountHandler } from './commands/delete-account.handler';
import { UpdateAccountProfileHandler } from './commands/update-account-profile.handler';
import { FindAccountsByUsernameHandler } from './queries/find-accounts-by-username.query';
import { GetAccountHandler } from './queries/get-account.query';
import { ListAccountsHandler } from './queries/list-accounts.query';
import { AccountsV1Controller } from './rest/accounts.v1.controller';
import { AccountsV2Controller } from './rest/accounts.v2.controller';

@Module({
  controllers: [AccountsV1Controller, AccountsV2Controller],
  providers: [CreateAccountHandler, UpdateAccountProfileHandler, ChangeProfilePictureHandler, DeleteAccountHandler, ListAccountsHandler, GetAccountHandler, FindAccountsByUsernameHandler],
})
export class AccountsModule {}
