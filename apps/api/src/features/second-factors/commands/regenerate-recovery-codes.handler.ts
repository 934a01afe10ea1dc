import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TRecoveryCodes } from '@rollcall/contracts';
import { secondFactorDecider, secondFactorStream } from '@rollcall/domain';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { Clock } from '../../../platform/runtime/clock';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import { newRecoveryCodes } from '../../auth/second-factor/recovery-codes';

export class RegenerateRecoveryCodesCommand {
  constructor(
    readonly accountId: string,
    readonly context: RequestContext,
  ) {}
}

/** Ten new recovery codes replace the old set whole (used or not), shown once in this answer. */
@CommandHandler(RegenerateRecoveryCodesCommand)
export class RegenerateRecoveryCodesHandler implements ICommandHandler<RegenerateRecoveryCodesCommand, CommandOutcome<TRecoveryCodes>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, context }: RegenerateRecoveryCodesCommand): Promise<CommandOutcome<TRecoveryCodes>> {
    const { codes, hashes } = newRecoveryCodes(accountId);
    const result = await handleCommand(this.store, this.clock, secondFactorDecider, secondFactorStream(accountId), { type: 'GenerateRecoveryCodes', data: { codeHashes: hashes, at: this.clock.now().toISOString() } }, context);
    return { value: { recovery_codes: codes }, position: result.position };
  }
}
