import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { accountDecider, accountStream, emailReservation, usernameReservation } from '@rollcall/domain';
import { type Kysely, sql, SqliteAdapter } from 'kysely';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { APP_CONFIG, CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { AppConfig } from '../../../platform/config/app-config';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import { ProjectionProgress } from '../../../platform/projections/projection-progress';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

export class EraseAccountPersonalDataCommand {
  constructor(
    readonly accountId: string,
    readonly context: RequestContext,
  ) {}
}

export const PERSONAL_DATA_ERASED_MESSAGE = 'Personal data erased';

/**
 * 'Erase personal data' (docs/adr/0015): deletes a live account and erases it in one decision, or
 * erases an account deleted before. Storing the event destroys the account's key (the event store's
 * vault does it), so every sealed field reads as erased from then on. What is not a read model is
 * cleaned here: the mail outbox keeps the address and name of each mail. Once the read models have
 * rewritten what they kept, the SQLite read file drops its WAL, which still holds the old pages.
 */
@CommandHandler(EraseAccountPersonalDataCommand)
export class EraseAccountPersonalDataHandler implements ICommandHandler<EraseAccountPersonalDataCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly progress: ProjectionProgress,
  ) {}

  async execute({ accountId, context }: EraseAccountPersonalDataCommand): Promise<CommandOutcome<{ id: string }>> {
    const result = await handleCommand(
      this.store,
      this.clock,
      accountDecider,
      accountStream(accountId),
      { type: 'EraseAccountPersonalData', data: { erasedAt: this.clock.now().toISOString() } },
      context,
      // a live account is deleted by the same decision: its username and e-mail are released with it
      (state) => (state.status === 'created' ? { releases: [usernameReservation(state.username), emailReservation(state.email)] } : {}),
    );
    await this.db.deleteFrom('mail_outbox_v1').where('account_id', '=', accountId).execute();
    if ((await this.progress.waitFor(result.position, this.config.consistencyWaitMs)) && this.db.getExecutor().adapter instanceof SqliteAdapter) {
      await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(this.db);
    }
    return { value: { id: accountId }, position: result.position };
  }
}
