import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { accountDecider, accountStream } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { handleCommandRetrying } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { OidcStoreAdapter } from '../oidc-store';

export class RevokeApplicationConsentCommand {
  constructor(
    readonly accountId: string,
    readonly applicationId: string,
    readonly context: RequestContext,
  ) {}
}

export const consentRevokedMessage = 'Consent revoked';

/**
 * ApplicationConsentRevoked in the account's stream (nothing when there was no consent), then the
 * provider's grants of that account at that application go, with their codes, access and refresh
 * tokens: the next sign-in there asks again, and what the application holds stops working at once.
 * The grants are revoked even without a consent event, so a retried revocation finishes the job.
 */
@CommandHandler(RevokeApplicationConsentCommand)
export class RevokeApplicationConsentHandler implements ICommandHandler<RevokeApplicationConsentCommand, CommandOutcome<{ ok: true }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, applicationId, context }: RevokeApplicationConsentCommand): Promise<CommandOutcome<{ ok: true }>> {
    const at = this.clock.now().toISOString();
    const result = await handleCommandRetrying(this.store, this.clock, accountDecider, accountStream(accountId), { type: 'RevokeApplicationConsent', data: { applicationId, at } }, context);
    await OidcStoreAdapter.revokeAccountClient(this.db, accountId, applicationId);
    return { value: { ok: true }, position: result.position };
  }
}
