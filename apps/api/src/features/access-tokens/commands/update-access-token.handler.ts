import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TUpdateAccessTokenInput } from '@rollcall/contracts';
import { accessTokenDecider, accessTokenStream } from '@rollcall/domain';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { Principal } from '../../../platform/access/principal';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import type { Kysely } from 'kysely';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import { loadGrants } from '../../auth/queries/load-grants';
import { assertMayGrant, assertWithinLimits, assertWithinReach, callerLimits, grantFromInput } from '../token-grant';

export class UpdateAccessTokenCommand {
  constructor(
    readonly tokenId: string,
    readonly input: TUpdateAccessTokenInput & { forever: boolean },
    readonly grantor: Principal,
    readonly context: RequestContext,
  ) {}
}

/** Title, permissions, restrictions and expiry change; the secret and the account never do. */
@CommandHandler(UpdateAccessTokenCommand)
export class UpdateAccessTokenHandler implements ICommandHandler<UpdateAccessTokenCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
  ) {}

  async execute({ tokenId, input, grantor, context }: UpdateAccessTokenCommand): Promise<CommandOutcome<{ id: string }>> {
    const grant = grantFromInput(input);
    assertMayGrant(grantor, grant.permissions);
    // also a token editing itself: its own stored limits are the ceiling, so it can narrow, never widen
    const limits = await callerLimits(this.db, grantor);
    if (limits) assertWithinLimits(limits, grant);
    const token = await this.db.selectFrom('access_tokens_v1').select('account_id').where('id', '=', tokenId).executeTakeFirst();
    if (token && token.account_id !== grantor.accountId) assertWithinReach(grantor, await loadGrants(this.db, token.account_id), grant.permissions);
    const result = await handleCommand(this.store, this.clock, accessTokenDecider, accessTokenStream(tokenId), { type: 'UpdateAccessToken', data: { tokenId, ...grant, updatedAt: this.clock.now().toISOString() } }, context);
    return { value: { id: tokenId }, position: result.position };
  }
}
