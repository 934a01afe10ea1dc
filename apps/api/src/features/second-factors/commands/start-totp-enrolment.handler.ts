import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TTotpEnrolment } from '@rollcall/contracts';
import { DomainError, secondFactorDecider, secondFactorStream, TOTP_PERIOD_SECONDS } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import type { Clock } from '../../../platform/runtime/clock';
import { newAggregateId } from '../../../platform/runtime/ids';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import { newTotpSecret, TOTP_DIGITS, totpQrCode, totpUri } from '../../auth/second-factor/totp-codes';
import { TotpSecretBox } from '../../auth/second-factor/totp-secret-box';

export class StartTotpEnrolmentCommand {
  constructor(
    readonly accountId: string,
    readonly context: RequestContext,
  ) {}
}

/**
 * A new TOTP secret for the own account: sealed into its event, shown in clear once (this answer),
 * pending until a first valid code confirms it. Starting again replaces a pending one.
 */
@CommandHandler(StartTotpEnrolmentCommand)
export class StartTotpEnrolmentHandler implements ICommandHandler<StartTotpEnrolmentCommand, CommandOutcome<TTotpEnrolment>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly box: TotpSecretBox,
  ) {}

  async execute({ accountId, context }: StartTotpEnrolmentCommand): Promise<CommandOutcome<TTotpEnrolment>> {
    const account = await this.db.selectFrom('accounts_v2').select(['username']).where('id', '=', accountId).executeTakeFirst();
    if (!account) throw new DomainError('account.not_found', 'This account does not exist');
    const enrolmentId = newAggregateId();
    const secret = newTotpSecret();
    const result = await handleCommand(this.store, this.clock, secondFactorDecider, secondFactorStream(accountId), {
      type: 'StartTotpEnrolment',
      data: { accountId, enrolmentId, sealedSecret: this.box.seal(accountId, enrolmentId, secret), at: this.clock.now().toISOString() },
    }, context);
    const uri = totpUri(secret, account.username);
    return { value: { enrolment_id: enrolmentId, secret, otpauth_uri: uri, qr_code: await totpQrCode(uri), period: TOTP_PERIOD_SECONDS, digits: TOTP_DIGITS }, position: result.position };
  }
}
