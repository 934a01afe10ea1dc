import { smartCardDecider, type SmartCardEvent, type SmartCardState } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import type { ReadDatabase } from '../../platform/read-db/read-database';

/**
 * A card whose account was deleted still names that account in its stream (ADR 0013 leaves removing
 * it to the API). It counts as unknown at a door; before it is registered again, its old
 * registration is removed in the same append (`SmartCardRemoved` by whoever registers it now), so a
 * deleted account's card is free, not 'taken' forever.
 */
export async function freeOrphanedCard(db: Kysely<ReadDatabase>, state: SmartCardState, removedBy: string, at: string): Promise<{ state: SmartCardState; events: SmartCardEvent[] }> {
  if (state.status !== 'registered') return { state, events: [] };
  const owner = await db.selectFrom('accounts_v2').select('id').where('id', '=', state.accountId).executeTakeFirst();
  if (owner) return { state, events: [] };
  const events = smartCardDecider.decide({ type: 'RemoveSmartCard', data: { cardId: state.cardId, removedBy, at } }, state);
  return { state: events.reduce(smartCardDecider.evolve, state), events };
}
