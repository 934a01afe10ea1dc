import { DomainError, type Decider, type DomainEvent } from '../shared';
import { normaliseCardUid } from './card-uid';

/**
 * An unknown card: a UID scanned at a reader that no account holds. Its scans are recorded on the
 * reader's ledger (`UnknownCardScanned`); what an administrator decides about it, other than giving
 * it to an account (a `SmartCardRegistered` on the card's own stream), is kept on a stream of its own,
 * `unknown-card-{UID}`: dismissing it takes it off the list of unknown cards, with who, when and why,
 * and a later scan of the same card lists it again.
 */
export type UnknownCardDismissed = DomainEvent<'UnknownCardDismissed', { cardUid: string; reason: string; dismissedBy: string; dismissedAt: string }>;
export type UnknownCardEvent = UnknownCardDismissed;
export const UNKNOWN_CARD_EVENT_TYPES: UnknownCardEvent['type'][] = ['UnknownCardDismissed'];

/** `listed`: the card is on the list of unknown cards now (the handler asks the read model and hands it in) */
export type DismissUnknownCard = { type: 'DismissUnknownCard'; data: { cardUid: string; listed: boolean; reason: string; dismissedBy: string; at: string } };
export type UnknownCardCommand = DismissUnknownCard;

export interface UnknownCardState {
  dismissals: number;
}

export const unknownCardDecider: Decider<UnknownCardCommand, UnknownCardEvent, UnknownCardState> = {
  initialState: () => ({ dismissals: 0 }),
  evolve(state, event) {
    switch (event.type) {
      case 'UnknownCardDismissed':
        return { dismissals: state.dismissals + 1 };
    }
  },
  decide(command) {
    switch (command.type) {
      case 'DismissUnknownCard': {
        const { listed, reason, dismissedBy, at } = command.data;
        // a card registered meanwhile, or dismissed already, is not on the list: nothing to dismiss
        if (!listed) throw new DomainError('unknown_card.not_found', 'This card is not on the list of unknown cards (registered or dismissed meanwhile)', 'card_uid');
        return [{ type: 'UnknownCardDismissed', data: { cardUid: normaliseCardUid(command.data.cardUid), reason: reason.trim(), dismissedBy, dismissedAt: at } }];
      }
      default: {
        const unhandled: never = command.type;
        throw new Error(`unhandled command ${String(unhandled)}`);
      }
    }
  },
};

/** the UID is normalised first, so every spelling of one card names one stream */
export const unknownCardStream = (cardUid: string) => `unknown-card-${normaliseCardUid(cardUid)}`;
