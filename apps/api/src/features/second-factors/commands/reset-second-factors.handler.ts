import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError, passkeyCredentialReservation, secondFactorDecider, secondFactorStream } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import type { Clock } from '../../../platform/runtime/clock';
import { APP_CONFIG, CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { AppConfig } from '../../../platform/config/app-config';
import { MailOutbox } from '../../../platform/mail/mail-outbox';
import { mailSecondFactorNotice } from '../second-factor-mails';

export const ownResetRefused = () =>
  new DomainError('second_factor.reset_own_account', "An administrator's reset is for other accounts: remove your own second factors on your own page, each with a current code or passkey");

export class ResetSecondFactorsCommand {
  constructor(
    readonly accountId: string,
    readonly reason: string,
    readonly context: RequestContext,
    /** the account the caller acts for (a session's or an access token's): never the one reset */
    readonly callerAccountId: string,
  ) {}
}

/**
 * An administrator removes every second factor and recovery code of an account (a lost phone), with
 * a reason, in the account's history as SecondFactorsReset. Where its policy requires a second
 * factor, the account's next sign-in leads it to enrol again. Never one's own account: that reset
 * would need no current factor and skip the policy's last-factor rule, so one's own factors go on
 * one's own page, each with a current code or passkey (R24 finding 2). The passkeys' credential ids
 * are released by the same append (passkeyCredentialReservation).
 */
@CommandHandler(ResetSecondFactorsCommand)
export class ResetSecondFactorsHandler implements ICommandHandler<ResetSecondFactorsCommand, CommandOutcome<null>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly outbox: MailOutbox,
  ) {}

  async execute({ accountId, reason, context, callerAccountId }: ResetSecondFactorsCommand): Promise<CommandOutcome<null>> {
    if (accountId === callerAccountId) throw ownResetRefused();
    const account = await this.db.selectFrom('accounts_v2').select('id').where('id', '=', accountId).executeTakeFirst();
    if (!account) throw new DomainError('account.not_found', 'This account does not exist');
    const result = await handleCommand(this.store, this.clock, secondFactorDecider, secondFactorStream(accountId), {
      type: 'ResetSecondFactors',
      data: { accountId, reason, resetBy: context.actor, at: this.clock.now().toISOString() },
    }, context, (state) => ({ releases: state.passkeys.map((p) => passkeyCredentialReservation(p.credential.credentialId)) }));
    const reset = result.events.find((event) => event.type === 'SecondFactorsReset');
    if (reset) await mailSecondFactorNotice({ db: this.db, outbox: this.outbox, config: this.config, clock: this.clock }, accountId, { change: 'reset', reason: reset.data.reason });
    return { value: null, position: result.position };
  }
}
