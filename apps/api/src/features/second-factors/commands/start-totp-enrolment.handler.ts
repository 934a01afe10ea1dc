import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TSecondFactorEnrolmentProof, TTotpEnrolment } from '@rollcall/contracts';
import { DomainError, secondFactorDecider, secondFactorStream, TOTP_PERIOD_SECONDS } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { handleCommand, loadState } from '../../../platform/commands/handle-command';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import type { Clock } from '../../../platform/runtime/clock';
import { newAggregateId } from '../../../platform/runtime/ids';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import { newTotpSecret, TOTP_DIGITS, totpQrCode, totpUri } from '../../auth/second-factor/totp-codes';
import { TotpSecretBox } from '../../auth/second-factor/totp-secret-box';
import { EnrolmentProof } from './enrolment-proof';
import type { OwnSession } from './passkeys.handlers';

export class StartTotpEnrolmentCommand {
  constructor(
    readonly session: OwnSession,
    readonly context: RequestContext,
    /** a current code or passkey when the account has a second factor (review R24 F3), else the current password unless the session signed in within five minutes (R24b F1) */
    readonly proof?: TSecondFactorEnrolmentProof,
  ) {}
}

/**
 * A new TOTP secret for the own account: sealed into its event, shown in clear once (this answer),
 * pending until a first valid code confirms it. Starting again replaces a pending one. An account
 * that already has a second factor confirms with a current one first, as a removal does (review R24
 * F3); one without gives its current password unless its session signed in within five minutes
 * (R24b F1, EnrolmentProof): a stolen session alone cannot plant a factor of its own.
 */
@CommandHandler(StartTotpEnrolmentCommand)
export class StartTotpEnrolmentHandler implements ICommandHandler<StartTotpEnrolmentCommand, CommandOutcome<TTotpEnrolment>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly box: TotpSecretBox,
    private readonly proofs: EnrolmentProof,
  ) {}

  async execute({ session, context, proof }: StartTotpEnrolmentCommand): Promise<CommandOutcome<TTotpEnrolment>> {
    const { accountId } = session;
    const account = await this.db.selectFrom('accounts_v2').select(['username', 'policy_id']).where('id', '=', accountId).executeTakeFirst();
    if (!account) throw new DomainError('account.not_found', 'This account does not exist');
    const enrolmentId = newAggregateId();
    const secret = newTotpSecret();
    const command = { type: 'StartTotpEnrolment' as const, data: { accountId, enrolmentId, sealedSecret: this.box.seal(accountId, enrolmentId, secret), at: this.clock.now().toISOString() } };
    const state = await loadState(this.store, secondFactorDecider, secondFactorStream(accountId));
    // refused before the confirmation is asked (an app is enrolled already): no code spent on it
    secondFactorDecider.decide(command, state);
    await this.proofs.check(session, { id: accountId, policyId: account.policy_id }, state, proof, context);
    const result = await handleCommand(this.store, this.clock, secondFactorDecider, secondFactorStream(accountId), command, context);
    const uri = totpUri(secret, account.username);
    return { value: { enrolment_id: enrolmentId, secret, otpauth_uri: uri, qr_code: await totpQrCode(uri), period: TOTP_PERIOD_SECONDS, digits: TOTP_DIGITS }, position: result.position };
  }
}
