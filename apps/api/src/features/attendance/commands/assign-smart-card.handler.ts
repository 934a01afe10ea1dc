import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TAssignCardInput, TSmartCard } from '@rollcall/contracts';
import { smartCardDecider, smartCardStream } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { loadState, retryingOnConflict } from '../../../platform/commands/handle-command';
import { appendDecision, loadStream } from '../../../platform/commands/multi-stream';
import type { Clock } from '../../../platform/runtime/clock';
import { newAggregateId } from '../../../platform/runtime/ids';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { freeOrphanedCard } from '../orphaned-card';

export class AssignSmartCardCommand {
  constructor(
    readonly input: { card_uid: string; account_id: TAssignCardInput['account_id'] },
    readonly context: RequestContext,
  ) {}
}

/**
 * An administrator gives a card to an account (an 'unknown card' item, or a UID typed in): the card's
 * stream takes it (`smart_card.taken` when another account holds it; the same account again changes nothing).
 */
@CommandHandler(AssignSmartCardCommand)
export class AssignSmartCardHandler implements ICommandHandler<AssignSmartCardCommand, CommandOutcome<TSmartCard>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input, context }: AssignSmartCardCommand): Promise<CommandOutcome<TSmartCard>> {
    const account = await this.db.selectFrom('accounts_v2').select('id').where('id', '=', input.account_id).executeTakeFirst();
    const at = this.clock.now().toISOString();
    const result = await retryingOnConflict(async () => {
      const card = await loadStream(this.store, smartCardDecider, smartCardStream(input.card_uid));
      // a deleted account's card is free: its old registration goes in the same append
      const freed = await freeOrphanedCard(this.db, card.state, context.actor, at);
      const events = [
        ...freed.events,
        ...smartCardDecider.decide(
          { type: 'RegisterSmartCard', data: { cardId: newAggregateId(), cardUid: input.card_uid, account: { accountId: input.account_id, exists: account !== undefined }, via: 'assignment', registeredBy: context.actor, scan: null, at } },
          freed.state,
        ),
      ];
      return { events, position: await appendDecision(this.store, this.clock, context, [{ stream: card, events }]) };
    });
    const registered = result.events.find((event) => event.type === 'SmartCardRegistered');
    if (registered) return { value: { id: registered.data.cardId, card_uid: registered.data.cardUid, created_at: at }, position: result.position };
    const state = await loadState(this.store, smartCardDecider, smartCardStream(input.card_uid));
    const row = state.status === 'registered' ? await this.db.selectFrom('smart_cards_v1').select(['id', 'card_uid', 'created_at']).where('id', '=', state.cardId).executeTakeFirst() : undefined;
    return { value: row ?? { id: state.status === 'registered' ? state.cardId : '', card_uid: input.card_uid, created_at: at }, position: result.position };
  }
}
