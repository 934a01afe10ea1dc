import { describe, expect, it } from 'vitest';
import { givenFor } from '../../test/given';
import { normaliseCardUid } from './card-uid';
import { smartCardDecider, smartCardStream, type RegisterSmartCard, type SmartCardEvent } from './smart-card';

const at = '2026-11-23T07:00:00.000Z';
const card = givenFor(smartCardDecider);

const register = (accountId: string, changes: Partial<RegisterSmartCard['data']> = {}): RegisterSmartCard => ({
  type: 'RegisterSmartCard',
  data: { cardId: `card-of-${accountId}`, cardUid: '04a1b2c3', account: { accountId, exists: true }, via: 'assignment', registeredBy: 'admin', scan: null, at, ...changes },
});
const registered = (accountId: string): SmartCardEvent => ({
  type: 'SmartCardRegistered',
  data: { cardId: `card-of-${accountId}`, cardUid: '04A1B2C3', accountId, via: 'assignment', registeredBy: 'admin', scan: null, registeredAt: at },
});
const removed = (accountId: string): SmartCardEvent => ({ type: 'SmartCardRemoved', data: { cardId: `card-of-${accountId}`, cardUid: '04A1B2C3', accountId, removedBy: 'admin', removedAt: at } });
const remove = (cardId: string) => ({ type: 'RemoveSmartCard' as const, data: { cardId, removedBy: 'admin', at } });

describe('card UIDs', () => {
  it('are hex bytes, upper case, without separators', () => {
    expect(normaliseCardUid('04:a1:b2:c3')).toBe('04A1B2C3');
    expect(normaliseCardUid(' 04-A1 B2-C3-D4-E5-F6 ')).toBe('04A1B2C3D4E5F6');
    expect(normaliseCardUid('00112233445566778899aabbccddeeff')).toHaveLength(32);
  });

  it.each([
    ['', 'Card UID is required'],
    ['04A1B2G3', 'Card UID must be hexadecimal (0-9, A-F)'],
    ['04A1B2C', 'Card UID must be whole bytes (an even number of hex digits)'],
    ['04A1B2', 'Card UID must be 4 to 16 bytes (8 to 32 hex digits)'],
    ['00112233445566778899AABBCCDDEEFF00', 'Card UID must be 4 to 16 bytes (8 to 32 hex digits)'],
  ])('refuses %j under card_uid', (raw, message) => {
    expect(() => normaliseCardUid(raw)).toThrowError(expect.objectContaining({ code: 'smart_card.uid_invalid', field: 'card_uid', message }) as Error);
  });

  it('name one stream per card, whatever the spelling', () => expect(smartCardStream('04-a1-b2-c3')).toBe(smartCardStream('04A1B2C3')));
});

describe('smart card decider', () => {
  it('registers a card to an account, its UID normalised', () => card([]).when(register('alice')).then([registered('alice')]));

  it('changes nothing when the same account registers it again', () => card([registered('alice')]).when(register('alice', { cardId: 'another-id' })).then([]));

  it('refuses a card another account holds: UIDs are unique across accounts', () => card([registered('alice')]).when(register('bob')).thenThrows('smart_card.taken', 'card_uid'));

  it('gives a removed card to anyone, as a new registration', () => card([registered('alice'), removed('alice')]).when(register('bob')).then([registered('bob')]));

  it('refuses an account that does not exist, and a bad UID', () => {
    card([]).when(register('ghost', { account: { accountId: 'ghost', exists: false } })).thenThrows('account.not_found', 'account_id');
    card([]).when(register('alice', { cardUid: 'not a uid' })).thenThrows('smart_card.uid_invalid', 'card_uid');
  });

  it('removes the current registration only', () => {
    card([registered('alice')]).when(remove('card-of-alice')).then([removed('alice')]);
    card([registered('alice'), removed('alice')]).when(remove('card-of-alice')).thenThrows('smart_card.not_found');
    card([registered('alice'), removed('alice'), registered('bob')]).when(remove('card-of-alice')).thenThrows('smart_card.not_found');
    card([]).when(remove('card-of-alice')).thenThrows('smart_card.not_found');
  });
});
