import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TConfirmTotpInput, TTotpConfirmed } from '@rollcall/contracts';
import { DomainError, pendingOf, remainingRecoveryCodes, secondFactorDecider, secondFactorStream, totpStepAt } from '@rollcall/domain';
import { handleCommand, loadState } from '../../../platform/commands/handle-command';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { Clock } from '../../../platform/runtime/clock';
import { APP_CONFIG, CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import { newRecoveryCodes } from '../../auth/second-factor/recovery-codes';
import { asTotpCode, matchingTotpStep } from '../../auth/second-factor/totp-codes';
import { TotpSecretBox } from '../../auth/second-factor/totp-secret-box';
import type { Kysely } from 'kysely';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import type { AppConfig } from '../../../platform/config/app-config';
import { MailOutbox } from '../../../platform/mail/mail-outbox';
import { mailSecondFactorNotice } from '../second-factor-mails';

export class ConfirmTotpCommand {
  constructor(
    readonly accountId: string,
    readonly input: TConfirmTotpInput,
    readonly context: RequestContext,
  ) {}
}

const codeInvalid = () => new DomainError('second_factor.code_invalid', 'This code is not valid: enter the code the app shows now', 'code');

/**
 * The first code from the app confirms the enrolment; an account without recovery codes gets its
 * first ten with it, in the same append, shown once in this answer.
 */
@CommandHandler(ConfirmTotpCommand)
export class ConfirmTotpHandler implements ICommandHandler<ConfirmTotpCommand, CommandOutcome<TTotpConfirmed>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly box: TotpSecretBox,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly outbox: MailOutbox,
  ) {}

  async execute({ accountId, input, context }: ConfirmTotpCommand): Promise<CommandOutcome<TTotpConfirmed>> {
    const now = this.clock.now();
    const state = await loadState(this.store, secondFactorDecider, secondFactorStream(accountId));
    const pending = pendingOf(state);
    if (!pending || pending.enrolmentId !== input.enrolment_id) throw new DomainError('second_factor.enrolment_not_found', 'This enrolment is not pending (finished, replaced or never started): start again');
    const secret = this.box.open(accountId, pending.enrolmentId, pending.sealedSecret);
    const code = asTotpCode(input.code);
    const step = secret && code ? matchingTotpStep(secret, code, now) : null;
    if (step === null) throw codeInvalid();
    const codes = remainingRecoveryCodes(state) === 0 ? newRecoveryCodes(accountId) : null;
    const at = now.toISOString();
    const result = await handleCommand(this.store, this.clock, secondFactorDecider, secondFactorStream(accountId), {
      type: 'ConfirmTotp',
      data: { enrolmentId: pending.enrolmentId, step, currentStep: totpStepAt(at), recoveryCodeHashes: codes?.hashes ?? null, at },
    }, context);
    if (result.events.some((event) => event.type === 'TotpEnrolled')) await mailSecondFactorNotice({ db: this.db, outbox: this.outbox, config: this.config, clock: this.clock }, accountId, { change: 'added', factor: 'totp' });
    return { value: { recovery_codes: codes?.codes ?? null }, position: result.position };
  }
}
