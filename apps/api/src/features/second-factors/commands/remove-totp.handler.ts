import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { secondFactorDecider, secondFactorStream } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import type { Clock } from '../../../platform/runtime/clock';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import { secondFactorRequiredFor } from '../../auth/second-factor/second-factor-requirement';

export class RemoveTotpCommand {
  constructor(
    readonly accountId: string,
    readonly context: RequestContext,
  ) {}
}

/** The own authenticator app goes (and with the last factor the recovery codes); not the last one where the policy requires a second factor. */
@CommandHandler(RemoveTotpCommand)
export class RemoveTotpHandler implements ICommandHandler<RemoveTotpCommand, CommandOutcome<null>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, context }: RemoveTotpCommand): Promise<CommandOutcome<null>> {
    const account = await this.db.selectFrom('accounts_v2').select(['policy_id']).where('id', '=', accountId).executeTakeFirst();
    const required = await secondFactorRequiredFor(this.db, accountId, account?.policy_id ?? null);
    const result = await handleCommand(this.store, this.clock, secondFactorDecider, secondFactorStream(accountId), { type: 'RemoveTotp', data: { required, at: this.clock.now().toISOString() } }, context);
    return { value: null, position: result.position };
  }
}
