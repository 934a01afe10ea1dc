import { describe, expect, it } from 'vitest';
import type { ReaderScan, RecordedScan } from '../attendance/recorded-scan';
import { fold } from '../shared';
import { smartCardDecider, type SmartCardEvent, type SmartCardState } from '../smart-card/smart-card';
import { decideEnrollmentScan } from './enrollment-scan';
import { readerDecider, type ReaderEvent, type ReaderState } from './reader';

const at = '2026-11-23T07:00:00.000Z';
const later = (seconds: number) => new Date(Date.parse(at) + seconds * 1000).toISOString();

const readerOf = (...events: ReaderEvent[]): ReaderState => fold(readerDecider, events);
const cardOf = (...events: SmartCardEvent[]): SmartCardState => fold(smartCardDecider, events);
const registered = (role: 'door' | 'enrollment' = 'enrollment'): ReaderEvent => ({ type: 'DoorReaderRegistered', data: { readerId: 'R', name: 'Front desk', door: 'Lobby', role, registeredAt: at } });
const armedFor = (accountId: string): ReaderEvent => ({ type: 'RegisterModeStarted', data: { readerId: 'R', accountId, startedBy: 'admin', expiresAt: later(120), startedAt: at } });
const cardOwnedBy = (accountId: string): SmartCardEvent => ({
  type: 'SmartCardRegistered',
  data: { cardId: 'old', cardUid: '04A1B2C3', accountId, via: 'assignment', registeredBy: 'admin', scan: null, registeredAt: at },
});

const scan = (receivedAt: string): ReaderScan => ({ scanId: 's1', readerId: 'R', sequence: 9, door: 'Lobby', cardUid: '04A1B2C3', deviceTime: receivedAt, sentAt: receivedAt, receivedAt });
const recorded = (s: ReaderScan): RecordedScan => ({ ...s, skewMs: 0, at: s.deviceTime, flags: [] });
const decide = (reader: ReaderState, card: SmartCardState, receivedAt = later(30)) => decideEnrollmentScan({ reader, card, scan: scan(receivedAt), cardId: 'new-card', clockSkewLimitSeconds: 120 });

describe('a card at an enrollment reader', () => {
  it('armed, a free card becomes the armed account\'s and register mode ends', () => {
    expect(decide(readerOf(registered(), armedFor('alice')), cardOf())).toEqual({
      outcome: 'card_registered',
      reader: [{ type: 'RegisterModeEnded', data: { readerId: 'R', accountId: 'alice', reason: 'card_registered', cardUid: '04A1B2C3', endedAt: later(30) } }],
      card: [
        {
          type: 'SmartCardRegistered',
          data: { cardId: 'new-card', cardUid: '04A1B2C3', accountId: 'alice', via: 'enrollment', registeredBy: 'admin', scan: recorded(scan(later(30))), registeredAt: later(30) },
        },
      ],
      ledger: [],
    });
  });

  it('armed, a card removed from someone else is free again', () =>
    expect(decide(readerOf(registered(), armedFor('alice')), cardOf(cardOwnedBy('bob'), { type: 'SmartCardRemoved', data: { cardId: 'old', cardUid: '04A1B2C3', accountId: 'bob', removedBy: 'admin', removedAt: at } })).outcome).toBe(
      'card_registered',
    ));

  it('armed, the account\'s own card ends register mode without a second registration', () => {
    const decision = decide(readerOf(registered(), armedFor('alice')), cardOf(cardOwnedBy('alice')));
    expect(decision.outcome).toBe('card_already_registered');
    expect(decision.card).toEqual([]);
    expect(decision.reader).toEqual([{ type: 'RegisterModeEnded', data: { readerId: 'R', accountId: 'alice', reason: 'card_already_registered', cardUid: '04A1B2C3', endedAt: later(30) } }]);
    expect(decision.ledger).toEqual([{ type: 'EnrollmentScanIgnored', data: { readerId: 'R', scan: recorded(scan(later(30))), reason: 'card_already_registered', armedForAccountId: 'alice', ownerAccountId: 'alice' } }]);
  });

  it('armed, another account\'s card is refused and the reader stays armed for the right one', () => {
    expect(decide(readerOf(registered(), armedFor('alice')), cardOf(cardOwnedBy('bob')))).toEqual({
      outcome: 'card_taken',
      reader: [],
      card: [],
      ledger: [{ type: 'EnrollmentScanIgnored', data: { readerId: 'R', scan: recorded(scan(later(30))), reason: 'card_taken', armedForAccountId: 'alice', ownerAccountId: 'bob' } }],
    });
  });

  it('not armed, an unknown card is an item to assign, a known one is only kept', () => {
    expect(decide(readerOf(registered()), cardOf())).toEqual({ outcome: 'unknown_card', reader: [], card: [], ledger: [{ type: 'UnknownCardScanned', data: { readerId: 'R', scan: recorded(scan(later(30))) } }] });
    expect(decide(readerOf(registered()), cardOf(cardOwnedBy('bob'))).ledger).toEqual([
      { type: 'EnrollmentScanIgnored', data: { readerId: 'R', scan: recorded(scan(later(30))), reason: 'not_armed', armedForAccountId: null, ownerAccountId: 'bob' } },
    ]);
  });

  it('is not armed any more once the time is up by the server clock, whatever the device says', () => {
    const expired = decideEnrollmentScan({ reader: readerOf(registered(), armedFor('alice')), card: cardOf(), scan: { ...scan(later(120)), deviceTime: later(10), sentAt: later(10) }, cardId: 'new-card', clockSkewLimitSeconds: 3600 });
    expect(expired.outcome).toBe('unknown_card');
  });

  it('is for enrollment readers only', () => expect(() => decide(readerOf(registered('door')), cardOf())).toThrowError(expect.objectContaining({ code: 'reader.not_enrollment' }) as Error));
});
