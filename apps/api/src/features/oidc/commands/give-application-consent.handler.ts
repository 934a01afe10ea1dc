import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { accountDecider, accountStream } from '@rollcall/domain';
import { handleCommandRetrying } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';

export class GiveApplicationConsentCommand {
  constructor(
    readonly accountId: string,
    readonly applicationId: string,
    /** the scopes the consent page showed and the grant holds; the caller checked the application offers them */
    readonly scopes: string[],
    readonly context: RequestContext,
  ) {}
}

/** Accept on the consent page: ApplicationConsentGiven in the account's stream (only scopes new to it). */
@CommandHandler(GiveApplicationConsentCommand)
export class GiveApplicationConsentHandler implements ICommandHandler<GiveApplicationConsentCommand, CommandOutcome<{ ok: true }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, applicationId, scopes, context }: GiveApplicationConsentCommand): Promise<CommandOutcome<{ ok: true }>> {
    const at = this.clock.now().toISOString();
    const result = await handleCommandRetrying(this.store, this.clock, accountDecider, accountStream(accountId), { type: 'GiveApplicationConsent', data: { applicationId, scopes, at } }, context);
    return { value: { ok: true }, position: result.position };
  }
}
