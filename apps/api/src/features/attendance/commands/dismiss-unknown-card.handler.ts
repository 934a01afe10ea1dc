import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { normaliseCardUid, unknownCardDecider, unknownCardStream } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

export class DismissUnknownCardCommand {
  constructor(
    readonly input: { card_uid: string; reason: string },
    readonly context: RequestContext,
  ) {}
}

/**
 * 'Dismiss' on the list of unknown cards: the card's own unknown-card stream records who took it off
 * the list, when and why (the event log and the history keep it); a later scan lists it again.
 */
@CommandHandler(DismissUnknownCardCommand)
export class DismissUnknownCardHandler implements ICommandHandler<DismissUnknownCardCommand, CommandOutcome<{ card_uid: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input, context }: DismissUnknownCardCommand): Promise<CommandOutcome<{ card_uid: string }>> {
    const cardUid = normaliseCardUid(input.card_uid);
    const listed = await this.db.selectFrom('unknown_cards_v1').select('card_uid').where('card_uid', '=', cardUid).executeTakeFirst();
    const result = await handleCommand(
      this.store,
      this.clock,
      unknownCardDecider,
      unknownCardStream(cardUid),
      { type: 'DismissUnknownCard', data: { cardUid, listed: listed !== undefined, reason: input.reason, dismissedBy: context.actor, at: this.clock.now().toISOString() } },
      context,
    );
    return { value: { card_uid: cardUid }, position: result.position };
  }
}
