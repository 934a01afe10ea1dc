import { Module } from '@nestjs/common';
import { SetAccountClaimsHandler } from './commands/set-account-claims.handler';
import { GetAccountClaimsHandler } from './queries/get-account-claims.query';
import { SsoClaimsV1Controller } from './rest/sso-claims.v1.controller';
import { SsoClaimsV2Controller } from './rest/sso-claims.v2.controller';

/**
 * An account's single sign-on claims (docs/adr/0014, console-accounts.md tab 10): REST v1 (read),
 * v2 (read, write) and (trpc/sso-claims.router.ts) tRPC; released-sso-claims.ts is what the OpenID
 * Connect provider reads.
 */
@Module({
  controllers: [SsoClaimsV1Controller, SsoClaimsV2Controller],
  providers: [SetAccountClaimsHandler, GetAccountClaimsHandler],
})
export class SsoClaimsModule {}
