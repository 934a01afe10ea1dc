import { randomBytes } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ACCESS_TOKEN_PREFIX, type TCreateAccessTokenInput } from '@rollcall/contracts';
import { accessTokenDecider, accessTokenStream, DomainError } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import { newAggregateId } from '../../../platform/runtime/ids';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { Principal } from '../../../platform/access/principal';
import { hashToken } from '../../../platform/access/session-token';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { loadGrants } from '../../auth/queries/load-grants';
import { assertMayGrant, assertWithinLimits, assertWithinReach, callerLimits, grantFromInput } from '../token-grant';

export class IssueAccessTokenCommand {
  constructor(
    readonly input: TCreateAccessTokenInput & { forever: boolean },
    readonly grantor: Principal,
    readonly context: RequestContext,
  ) {}
}

export interface IssuedAccessToken {
  id: string;
  /** the secret, returned once and never stored */
  token: string;
}

/** 'rc_' + 256 random bits; the list shows 'rc_' and the next 8 characters to tell tokens apart. */
const newAccessToken = () => `${ACCESS_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
const DISPLAY_PREFIX_LENGTH = ACCESS_TOKEN_PREFIX.length + 8;

@CommandHandler(IssueAccessTokenCommand)
export class IssueAccessTokenHandler implements ICommandHandler<IssueAccessTokenCommand, CommandOutcome<IssuedAccessToken>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input, grantor, context }: IssueAccessTokenCommand): Promise<CommandOutcome<IssuedAccessToken>> {
    const grant = grantFromInput(input);
    assertMayGrant(grantor, grant.permissions);
    const limits = await callerLimits(this.db, grantor);
    if (limits) assertWithinLimits(limits, grant);
    const account = await this.db.selectFrom('accounts_v2').select('id').where('id', '=', input.account_id).executeTakeFirst();
    if (!account) throw new DomainError('account.not_found', 'This account does not exist', 'account_id');
    if (account.id !== grantor.accountId) assertWithinReach(grantor, await loadGrants(this.db, account.id), grant.permissions);
    const tokenId = newAggregateId();
    const token = newAccessToken();
    const result = await handleCommand(
      this.store,
      this.clock,
      accessTokenDecider,
      accessTokenStream(tokenId),
      {
        type: 'IssueAccessToken',
        data: { tokenId, accountId: account.id, ...grant, tokenHash: hashToken(token), displayPrefix: token.slice(0, DISPLAY_PREFIX_LENGTH), issuedAt: this.clock.now().toISOString() },
      },
      context,
    );
    return { value: { id: tokenId, token }, position: result.position };
  }
}
