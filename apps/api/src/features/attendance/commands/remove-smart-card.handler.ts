import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError, smartCardDecider, smartCardStream } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

export class RemoveSmartCardCommand {
  constructor(
    readonly cardId: string,
    /** asks whether the administrator may manage this card's account; false answers 'not found' */
    readonly mayManage: (accountId: string) => Promise<boolean>,
    readonly context: RequestContext,
  ) {}
}

const notFound = () => new DomainError('smart_card.not_found', 'This smart card does not exist or was removed');

/** 'Remove card' (`DELETE account/smartcard/{card_id}`): the card's stream records the removal; its UID is free again. */
@CommandHandler(RemoveSmartCardCommand)
export class RemoveSmartCardHandler implements ICommandHandler<RemoveSmartCardCommand, CommandOutcome<{ id: string; card_uid: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ cardId, mayManage, context }: RemoveSmartCardCommand): Promise<CommandOutcome<{ id: string; card_uid: string }>> {
    const row = await this.db.selectFrom('smart_cards_v1').select(['card_uid', 'account_id']).where('id', '=', cardId).executeTakeFirst();
    if (!row || !(await mayManage(row.account_id))) throw notFound();
    const result = await handleCommand(
      this.store,
      this.clock,
      smartCardDecider,
      smartCardStream(row.card_uid),
      { type: 'RemoveSmartCard', data: { cardId, removedBy: context.actor, at: this.clock.now().toISOString() } },
      context,
    );
    return { value: { id: cardId, card_uid: row.card_uid }, position: result.position };
  }
}
