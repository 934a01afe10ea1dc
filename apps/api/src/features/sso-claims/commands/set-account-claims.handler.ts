import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { accountDecider, accountStream } from '@rollcall/domain';
import { handleCommandRetrying } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';

export class SetAccountClaimsCommand {
  constructor(
    readonly accountId: string,
    /** only the changed claims, already checked against the catalogue by the contracts; null clears */
    readonly claims: Record<string, string | null>,
    readonly context: RequestContext,
  ) {}
}

/**
 * The tab's Save (`PUT account/{id}/claims`, `ssoClaims.set`): AccountClaimsChanged on the account's
 * stream with the claims that really changed (docs/adr/0014). A deleted account is 404
 * account.not_found; an unchanged save records nothing.
 */
@CommandHandler(SetAccountClaimsCommand)
export class SetAccountClaimsHandler implements ICommandHandler<SetAccountClaimsCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, claims, context }: SetAccountClaimsCommand): Promise<CommandOutcome<{ id: string }>> {
    const command = { type: 'SetAccountClaims' as const, data: { claims, at: this.clock.now().toISOString() } };
    const result = await handleCommandRetrying(this.store, this.clock, accountDecider, accountStream(accountId), command, context);
    return { value: { id: accountId }, position: result.position };
  }
}
