import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { EndAccountSessions } from '../auth/commands/end-account-sessions';
import { ChangeAccountAuthHandler } from './commands/change-account-auth.handler';
import { ChangeOwnPasswordHandler } from './commands/change-own-password.handler';
import { RequirePasswordChangeHandler } from './commands/require-password-change.handler';
import { SetPasswordHandler } from './commands/set-password.handler';
import { NewPasswordService } from './new-password';
import { GetAccountAuthHandler } from './queries/get-account-auth.query';
import { ChangeProfilePictureHandler } from './commands/change-profile-picture.handler';
import { CreateAccountHandler } from './commands/create-account.handler';
import { DeleteAccountHandler } from './commands/delete-account.handler';
import { AccountErasureV2Controller } from './rest/account-erasure.v2.controller';
import { EraseAccountPersonalDataHandler } from './commands/erase-account-personal-data.handler';
import { UpdateAccountProfileHandler } from './commands/update-account-profile.handler';
import { FindAccountsByUsernameHandler } from './queries/find-accounts-by-username.query';
import { GetAccountHandler } from './queries/get-account.query';
import { ListAccountsHandler } from './queries/list-accounts.query';
import { AccountsV1Controller } from './rest/accounts.v1.controller';
import { AccountsV2Controller } from './rest/accounts.v2.controller';
import { ImportAccountsHandler } from './commands/import-accounts.handler';
import { AccountsImportV1Controller } from './rest/accounts-import.v1.controller';
import { AccountsImportV2Controller } from './rest/accounts-import.v2.controller';
import { ActivationMails } from './activation-mails';
import { ActivateAccountHandler } from './commands/activate-account.handler';
import { IssueActivationHandler } from './commands/issue-activation.handler';
import { OwnCredentialsRule } from './own-credentials';
import { UnlockAccountHandler } from './commands/unlock-account.handler';
import { GetActivationHandler } from './queries/get-activation.query';

@Module({
  // the own change's current password is checked by auth's PasswordAttempts (the sign-in's throttle and lockout)
  imports: [AuthModule],
  controllers: [AccountsV1Controller, AccountsV2Controller, AccountErasureV2Controller, AccountsImportV1Controller, AccountsImportV2Controller],
  providers: [
    CreateAccountHandler,
    UpdateAccountProfileHandler,
    ChangeProfilePictureHandler,
    DeleteAccountHandler,
    EraseAccountPersonalDataHandler,
    ListAccountsHandler,
    GetAccountHandler,
    FindAccountsByUsernameHandler,
    NewPasswordService,
    ChangeAccountAuthHandler,
    RequirePasswordChangeHandler,
    SetPasswordHandler,
    EndAccountSessions,
    ChangeOwnPasswordHandler,
    GetAccountAuthHandler,
    ImportAccountsHandler,
    ActivationMails,
    IssueActivationHandler,
    ActivateAccountHandler,
    UnlockAccountHandler,
    OwnCredentialsRule,
    GetActivationHandler,
  ],
})
export class AccountsModule {}
