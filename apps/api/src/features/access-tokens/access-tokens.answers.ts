import type { QueryBus } from '@nestjs/cqrs';
import type { TAccessToken, TCreatedAccessToken } from '@rollcall/contracts';
import type { IssuedAccessToken } from './commands/issue-access-token.handler';
import { GetAccessTokenQuery } from './queries/get-access-token.query';

/** What REST and tRPC answer alike for access tokens (shaped once, here). */

export const tokenDeletedMessage = (title: string) => `Token "${title}" deleted`;

/** The created token with its secret, the one time it is shown. */
export async function createdAccessToken(queryBus: QueryBus, issued: IssuedAccessToken): Promise<TCreatedAccessToken> {
  const token = await queryBus.execute<GetAccessTokenQuery, TAccessToken>(new GetAccessTokenQuery(issued.id));
  return { ...token, unique_id: issued.token, token: issued.token };
}
