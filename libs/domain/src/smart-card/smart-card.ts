import type { RecordedScan } from '../attendance/recorded-scan';
import { DomainError, type Decider, type DomainEvent } from '../shared';
import { normaliseCardUid } from './card-uid';

/**
 * A smart card, one stream per card UID: `smart-card-{UID}` (docs/adr/0013). The stream's name is
 * the uniqueness: two registrations of one UID append to the same stream, and optimistic
 * concurrency lets only one of them through, as a reservation would. It also makes the scan path's
 * lookup (UID -> account) one read of one small stream, consistent with every registration and
 * removal, instead of a query of an eventually consistent read model.
 *
 * `cardId` is the registration's id (the spec's 'Card ID', `DELETE account/smartcard/{card_id}`): a
 * card removed and registered again, to anyone, is a new registration with a new id.
 */

/** 'enrollment': the next scan at an armed enrollment reader; 'assignment': an administrator gave an unknown card to an account */
export type CardRegistrationSource = 'enrollment' | 'assignment';

export type SmartCardRegistered = DomainEvent<
  'SmartCardRegistered',
  {
    cardId: string;
    cardUid: string;
    accountId: string;
    via: CardRegistrationSource;
    /** the administrator who armed the reader or assigned the card */
    registeredBy: string;
    /** the enrollment scan itself, kept like every other scan; null for an assignment */
    scan: RecordedScan | null;
    registeredAt: string;
  }
>;
export type SmartCardRemoved = DomainEvent<'SmartCardRemoved', { cardId: string; cardUid: string; accountId: string; removedBy: string; removedAt: string }>;
export type SmartCardEvent = SmartCardRegistered | SmartCardRemoved;
export const SMART_CARD_EVENT_TYPES: SmartCardEvent['type'][] = ['SmartCardRegistered', 'SmartCardRemoved'];

/** What the account's own stream says; the handler folds it and hands it in. */
export interface CardHolder {
  accountId: string;
  exists: boolean;
}

export type RegisterSmartCard = {
  type: 'RegisterSmartCard';
  data: { cardId: string; cardUid: string; account: CardHolder; via: CardRegistrationSource; registeredBy: string; scan: RecordedScan | null; at: string };
};
export type RemoveSmartCard = { type: 'RemoveSmartCard'; data: { cardId: string; removedBy: string; at: string } };
export type SmartCardCommand = RegisterSmartCard | RemoveSmartCard;

export type SmartCardState =
  | { status: 'none' }
  | { status: 'registered'; cardId: string; cardUid: string; accountId: string }
  | { status: 'removed'; cardUid: string };

const notFound = () => new DomainError('smart_card.not_found', 'This smart card does not exist or was removed');

export const smartCardDecider: Decider<SmartCardCommand, SmartCardEvent, SmartCardState> = {
  initialState: () => ({ status: 'none' }),
  evolve(_state, event) {
    switch (event.type) {
      case 'SmartCardRegistered':
        return { status: 'registered', cardId: event.data.cardId, cardUid: event.data.cardUid, accountId: event.data.accountId };
      case 'SmartCardRemoved':
        return { status: 'removed', cardUid: event.data.cardUid };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'RegisterSmartCard': {
        const { cardId, account, via, registeredBy, scan, at } = command.data;
        const cardUid = normaliseCardUid(command.data.cardUid);
        if (state.status !== 'none' && state.cardUid !== cardUid) throw new Error(`stream of card ${state.cardUid} asked to register ${cardUid}`);
        if (!account.exists) throw new DomainError('account.not_found', 'Account not found', 'account_id');
        if (state.status === 'registered') {
          // the same card for the same account again (a second click, a retried assignment) changes nothing
          if (state.accountId === account.accountId) return [];
          throw new DomainError('smart_card.taken', 'This card is already registered to another account', 'card_uid');
        }
        return [{ type: 'SmartCardRegistered', data: { cardId, cardUid, accountId: account.accountId, via, registeredBy, scan, registeredAt: at } }];
      }
      case 'RemoveSmartCard':
        // an old registration's id does not remove the card's current one
        if (state.status !== 'registered' || state.cardId !== command.data.cardId) throw notFound();
        return [{ type: 'SmartCardRemoved', data: { cardId: state.cardId, cardUid: state.cardUid, accountId: state.accountId, removedBy: command.data.removedBy, removedAt: command.data.at } }];
      default: {
        const unhandled: never = command;
        throw new Error(`unhandled command ${(unhandled as { type: string }).type}`);
      }
    }
  },
};

/** the UID is normalised first, so every spelling of one card names one stream */
export const smartCardStream = (cardUid: string) => `smart-card-${normaliseCardUid(cardUid)}`;
