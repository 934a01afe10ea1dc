import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TRecoveryCodes, TSecondFactorConfirmation } from '@rollcall/contracts';
import { hasSecondFactor, secondFactorDecider, secondFactorStream } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { loadState } from '../../../platform/commands/handle-command';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { READ_DB } from '../../../platform/tokens';
import { PasskeyCeremonies } from '../../auth/second-factor/passkey-ceremonies';
import { SecondFactorVerifier } from '../../auth/second-factor/second-factor-verifier';
import type { OwnSession } from './passkeys.handlers';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { Clock } from '../../../platform/runtime/clock';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import { newRecoveryCodes } from '../../auth/second-factor/recovery-codes';

export class RegenerateRecoveryCodesCommand {
  constructor(
    readonly session: OwnSession,
    readonly confirmation: TSecondFactorConfirmation | undefined,
    readonly context: RequestContext,
  ) {}
}

/**
 * Ten new recovery codes replace the old set whole (used or not), shown once in this answer; after a
 * current code or passkey (docs/adr/0029): the old set's codes are a factor's stand-ins.
 */
@CommandHandler(RegenerateRecoveryCodesCommand)
export class RegenerateRecoveryCodesHandler implements ICommandHandler<RegenerateRecoveryCodesCommand, CommandOutcome<TRecoveryCodes>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    private readonly verifier: SecondFactorVerifier,
    private readonly ceremonies: PasskeyCeremonies,
  ) {}

  async execute({ session, confirmation, context }: RegenerateRecoveryCodesCommand): Promise<CommandOutcome<TRecoveryCodes>> {
    const { accountId } = session;
    const state = await loadState(this.store, secondFactorDecider, secondFactorStream(accountId));
    if (hasSecondFactor(state)) {
      const account = await this.db.selectFrom('accounts_v2').select(['policy_id']).where('id', '=', accountId).executeTakeFirst();
      await this.verifier.confirm({ id: accountId, policyId: account?.policy_id ?? null }, confirmation, () => this.ceremonies.relyingParty(session.origin), session.sessionId, context);
    }
    const { codes, hashes } = newRecoveryCodes(accountId);
    const result = await handleCommand(this.store, this.clock, secondFactorDecider, secondFactorStream(accountId), { type: 'GenerateRecoveryCodes', data: { codeHashes: hashes, at: this.clock.now().toISOString() } }, context);
    return { value: { recovery_codes: codes }, position: result.position };
  }
}
