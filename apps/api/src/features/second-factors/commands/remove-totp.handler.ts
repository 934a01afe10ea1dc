import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TSecondFactorConfirmation } from '@rollcall/contracts';
import { loadState } from '../../../platform/commands/handle-command';
import { secondFactorDecider, secondFactorStream } from '@rollcall/domain';
import { PasskeyCeremonies } from '../../auth/second-factor/passkey-ceremonies';
import { SecondFactorVerifier } from '../../auth/second-factor/second-factor-verifier';
import type { OwnSession } from './passkeys.handlers';
import type { Kysely } from 'kysely';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import type { Clock } from '../../../platform/runtime/clock';
import { APP_CONFIG, CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import { secondFactorRequiredFor } from '../../auth/second-factor/second-factor-requirement';
import type { AppConfig } from '../../../platform/config/app-config';
import { MailOutbox } from '../../../platform/mail/mail-outbox';
import { mailSecondFactorNotice } from '../second-factor-mails';

export class RemoveTotpCommand {
  constructor(
    readonly session: OwnSession,
    readonly confirmation: TSecondFactorConfirmation | undefined,
    readonly context: RequestContext,
  ) {}
}

/**
 * The own authenticator app goes (and with the last factor the recovery codes), after a current code
 * or passkey (docs/adr/0029); not the last one where the policy requires a second factor.
 */
@CommandHandler(RemoveTotpCommand)
export class RemoveTotpHandler implements ICommandHandler<RemoveTotpCommand, CommandOutcome<null>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly verifier: SecondFactorVerifier,
    private readonly ceremonies: PasskeyCeremonies,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly outbox: MailOutbox,
  ) {}

  async execute({ session, confirmation, context }: RemoveTotpCommand): Promise<CommandOutcome<null>> {
    const { accountId } = session;
    const account = await this.db.selectFrom('accounts_v2').select(['policy_id']).where('id', '=', accountId).executeTakeFirst();
    const required = await secondFactorRequiredFor(this.db, accountId, account?.policy_id ?? null);
    const command = { type: 'RemoveTotp' as const, data: { required, at: this.clock.now().toISOString() } };
    const state = await loadState(this.store, secondFactorDecider, secondFactorStream(accountId));
    // refused before the confirmation is asked (nothing enrolled, the last factor the policy requires)
    secondFactorDecider.decide(command, state);
    // a pending enrolment (no factor yet) goes without one
    if (state.totp?.confirmed) await this.verifier.confirm({ id: accountId, policyId: account?.policy_id ?? null }, confirmation, () => this.ceremonies.relyingParty(session.origin), session.sessionId, context);
    const result = await handleCommand(this.store, this.clock, secondFactorDecider, secondFactorStream(accountId), command, context);
    // a pending enrolment was never a factor: its removal is no news
    if (state.totp?.confirmed && result.events.length > 0) await mailSecondFactorNotice({ db: this.db, outbox: this.outbox, config: this.config, clock: this.clock }, accountId, { change: 'removed', factor: 'totp' });
    return { value: null, position: result.position };
  }
}
