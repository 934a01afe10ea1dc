import { Module } from '@nestjs/common';
import { IssueAccessTokenHandler } from './commands/issue-access-token.handler';
import { RevokeAccessTokenHandler } from './commands/revoke-access-token.handler';
import { UpdateAccessTokenHandler } from './commands/update-access-token.handler';
import { GetAccessTokenHandler } from './queries/get-access-token.query';
import { ListAccessTokensHandler } from './queries/list-access-tokens.query';
import { AccessTokensV1Controller } from './rest/access-tokens.v1.controller';
import { AccessTokensV2Controller } from './rest/access-tokens.v2.controller';

/** Access tokens: REST v1/v2 and (in trpc/app-router.ts) tRPC over the same handlers; authentication with them lives in auth/. */
@Module({
  controllers: [AccessTokensV1Controller, AccessTokensV2Controller],
  providers: [IssueAccessTokenHandler, UpdateAccessTokenHandler, RevokeAccessTokenHandler, ListAccessTokensHandler, GetAccessTokenHandler],
})
export class AccessTokensModule {}
