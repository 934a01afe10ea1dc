import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { accessTokenDecider, accessTokenStream, type AccessTokenEvent } from '@rollcall/domain';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';

export class RevokeAccessTokenCommand {
  constructor(
    readonly tokenId: string,
    readonly context: RequestContext,
  ) {}
}

/** Deleting a token revokes it: the next request with it is refused (the credential cache is evicted by the event). */
@CommandHandler(RevokeAccessTokenCommand)
export class RevokeAccessTokenHandler implements ICommandHandler<RevokeAccessTokenCommand, CommandOutcome<{ id: string; title: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ tokenId, context }: RevokeAccessTokenCommand): Promise<CommandOutcome<{ id: string; title: string }>> {
    const result = await handleCommand(this.store, this.clock, accessTokenDecider, accessTokenStream(tokenId), { type: 'RevokeAccessToken', data: { revokedAt: this.clock.now().toISOString() } }, context);
    const [revoked] = result.events as Extract<AccessTokenEvent, { type: 'AccessTokenRevoked' }>[];
    return { value: { id: tokenId, title: revoked.data.title }, position: result.position };
  }
}
