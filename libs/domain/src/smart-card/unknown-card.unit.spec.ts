import { describe, it } from 'vitest';
import { givenFor } from '../../test/given';
import { unknownCardDecider, type DismissUnknownCard, type UnknownCardEvent } from './unknown-card';

const at = '2026-11-26T07:00:00.000Z';
const card = givenFor(unknownCardDecider);
const dismiss = (changes: Partial<DismissUnknownCard['data']> = {}): DismissUnknownCard => ({ type: 'DismissUnknownCard', data: { cardUid: '04:a1:b2:c3', listed: true, reason: ' a visitor ', dismissedBy: 'admin', at, ...changes } });
const dismissed: UnknownCardEvent = { type: 'UnknownCardDismissed', data: { cardUid: '04A1B2C3', reason: 'a visitor', dismissedBy: 'admin', dismissedAt: at } };

describe('unknown card decider', () => {
  it('dismisses a listed card, with who, when and why', () => card([]).when(dismiss()).then([dismissed]));
  it('dismisses it again after a later scan listed it again', () => card([dismissed]).when(dismiss()).then([dismissed]));
  it('refuses a card that is not listed (registered or dismissed meanwhile)', () => card([dismissed]).when(dismiss({ listed: false })).thenThrows('unknown_card.not_found', 'card_uid'));
});
