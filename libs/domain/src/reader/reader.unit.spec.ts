import { describe, expect, it } from 'vitest';
import { givenFor } from '../../test/given';
import { readerDecider, readerNameReservation, type ReaderEvent, type RegisterModeEndReason } from './reader';

const at = '2026-11-23T07:00:00.000Z';
const later = (seconds: number) => new Date(Date.parse(at) + seconds * 1000).toISOString();
const hashA = 'a'.repeat(64);
const hashB = 'b'.repeat(64);
const reader = givenFor(readerDecider);

const registered = (role: 'door' | 'enrollment' = 'enrollment'): ReaderEvent => ({ type: 'DoorReaderRegistered', data: { readerId: 'R', name: 'Front desk', door: 'Lobby', role, registeredAt: at } });
const issued = (tokenHash: string, replacedTokenHash: string | null = null): ReaderEvent => ({ type: 'ReaderTokenIssued', data: { readerId: 'R', tokenHash, displayPrefix: 'rr_abcd', replacedTokenHash, issuedAt: at } });
const armed = (accountId: string, startedBy = 'admin', startedAt = at): ReaderEvent => ({
  type: 'RegisterModeStarted',
  data: { readerId: 'R', accountId, startedBy, expiresAt: new Date(Date.parse(startedAt) + 120_000).toISOString(), startedAt },
});
const ended = (accountId: string, reason: RegisterModeEndReason, endedAt: string): ReaderEvent => ({ type: 'RegisterModeEnded', data: { readerId: 'R', accountId, reason, cardUid: null, endedAt } });
const start = (accountId: string, startedBy = 'admin', when = at, timeoutSeconds = 120) => ({ type: 'StartRegisterMode' as const, data: { accountId, startedBy, timeoutSeconds, at: when } });

describe('registering and editing a reader', () => {
  it('registers a reader with its name and door trimmed', () =>
    reader([]).when({ type: 'RegisterReader', data: { readerId: 'R', name: ' Front desk ', door: ' Lobby', role: 'enrollment', at } }).then([registered()]));

  it('refuses a missing name or door, an unknown role, and a second registration', () => {
    reader([]).when({ type: 'RegisterReader', data: { readerId: 'R', name: ' ', door: 'Lobby', role: 'door', at } }).thenThrows('reader.name_invalid', 'name');
    reader([]).when({ type: 'RegisterReader', data: { readerId: 'R', name: 'Front', door: '', role: 'door', at } }).thenThrows('reader.door_invalid', 'door');
    reader([]).when({ type: 'RegisterReader', data: { readerId: 'R', name: 'Front', door: 'x'.repeat(256), role: 'door', at } }).thenThrows('reader.door_invalid', 'door');
    reader([]).when({ type: 'RegisterReader', data: { readerId: 'R', name: 'Front', door: 'Lobby', role: 'turnstile', at } }).thenThrows('reader.role_invalid', 'role');
    reader([registered()]).when({ type: 'RegisterReader', data: { readerId: 'R', name: 'Front', door: 'Lobby', role: 'door', at } }).thenThrows('reader.exists');
  });

  it('renames and moves, recording what it was, and nothing when unchanged', () => {
    reader([registered()]).when({ type: 'RenameReader', data: { name: 'Reception', at } }).then([{ type: 'DoorReaderRenamed', data: { readerId: 'R', name: 'Reception', previousName: 'Front desk', renamedAt: at } }]);
    reader([registered()]).when({ type: 'RenameReader', data: { name: 'Front desk ', at } }).then([]);
    reader([registered()]).when({ type: 'MoveReader', data: { door: 'Gate 2', at } }).then([{ type: 'DoorReaderMoved', data: { readerId: 'R', door: 'Gate 2', previousDoor: 'Lobby', movedAt: at } }]);
    reader([registered()]).when({ type: 'MoveReader', data: { door: 'Lobby', at } }).then([]);
  });

  it('reserves names case-insensitively', () => expect(readerNameReservation(' Front Desk ')).toEqual(readerNameReservation('front desk')));
});

describe('reader tokens', () => {
  const issue = (tokenHash: string) => ({ type: 'IssueReaderToken' as const, data: { tokenHash, displayPrefix: 'rr_abcd', at } });

  it('issues a token as its hash only; a new one replaces the old', () => {
    reader([registered()]).when(issue(hashA)).then([issued(hashA)]);
    reader([registered(), issued(hashA)]).when(issue(hashB)).then([issued(hashB, hashA)]);
  });

  it('never takes a clear token for a hash', () => expect(() => readerDecider.decide(issue('rr_secret-token'), readerDecider.evolve(readerDecider.initialState(), registered()))).toThrow(/SHA-256/));

  it('revokes the current token, and says so when there is none', () => {
    reader([registered(), issued(hashA), issued(hashB, hashA)]).when({ type: 'RevokeReaderToken', data: { at } }).then([{ type: 'ReaderTokenRevoked', data: { readerId: 'R', tokenHash: hashB, revokedAt: at } }]);
    reader([registered()]).when({ type: 'RevokeReaderToken', data: { at } }).thenThrows('reader.token_not_found');
    reader([registered(), issued(hashA), { type: 'ReaderTokenRevoked', data: { readerId: 'R', tokenHash: hashA, revokedAt: at } }]).when({ type: 'RevokeReaderToken', data: { at } }).thenThrows('reader.token_not_found');
  });
});

describe('deleting a reader', () => {
  const deleted: ReaderEvent = { type: 'DoorReaderDeleted', data: { readerId: 'R', name: 'Front desk', deletedAt: at } };

  it('deletes it, ending a register mode in progress so the dialog hears of it', () => {
    reader([registered(), issued(hashA)]).when({ type: 'DeleteReader', data: { at } }).then([deleted]);
    reader([registered(), armed('alice')]).when({ type: 'DeleteReader', data: { at: later(10) } }).then([{ ...ended('alice', 'reader_deleted', later(10)) }, { ...deleted, data: { ...deleted.data, deletedAt: later(10) } }]);
  });

  it('knows nothing of it afterwards', () => {
    reader([registered(), deleted]).when({ type: 'RenameReader', data: { name: 'Again', at } }).thenThrows('reader.not_found');
    reader([registered(), deleted]).when({ type: 'IssueReaderToken', data: { tokenHash: hashA, displayPrefix: 'rr_abcd', at } }).thenThrows('reader.not_found');
    reader([]).when({ type: 'DeleteReader', data: { at } }).thenThrows('reader.not_found');
  });
});

describe('register mode', () => {
  it('arms an enrollment reader for an account for a bounded time', () => reader([registered()]).when(start('alice')).then([armed('alice')]));

  it('is for enrollment readers only', () => reader([registered('door')]).when(start('alice')).thenThrows('reader.not_enrollment'));

  it('refuses a timeout outside 10 to 600 seconds as a programming error', () => {
    const state = [registered()].reduce(readerDecider.evolve, readerDecider.initialState());
    expect(() => readerDecider.decide(start('alice', 'admin', at, 5), state)).toThrow(/timeout/);
    expect(() => readerDecider.decide(start('alice', 'admin', at, 601), state)).toThrow(/timeout/);
  });

  it("will not take another administrator's arming for another account while it runs", () => {
    reader([registered(), armed('alice', 'ada')]).when(start('bob', 'grace', later(60))).thenThrows('reader.register_mode_busy');
    reader([registered(), armed('alice', 'ada')]).when(start('bob', 'grace', later(120))).then([armed('bob', 'grace', later(120))]);
  });

  it('extends the time for the same account, and replaces the same administrator\'s arming for another', () => {
    reader([registered(), armed('alice', 'ada')]).when(start('alice', 'grace', later(60))).then([armed('alice', 'grace', later(60))]);
    reader([registered(), armed('alice', 'ada')]).when(start('bob', 'ada', later(60))).then([ended('alice', 'replaced', later(60)), armed('bob', 'ada', later(60))]);
  });

  it('is cancelled while it runs; a late cancel records nothing', () => {
    reader([registered(), armed('alice')]).when({ type: 'CancelRegisterMode', data: { at: later(30) } }).then([ended('alice', 'cancelled', later(30))]);
    reader([registered(), armed('alice')]).when({ type: 'CancelRegisterMode', data: { at: later(120) } }).then([]);
    reader([registered()]).when({ type: 'CancelRegisterMode', data: { at } }).then([]);
  });

  it('ends by itself when its time is up, once', () => {
    const expire = (when: string) => ({ type: 'ExpireRegisterMode' as const, data: { at: when } });
    reader([registered(), armed('alice')]).when(expire(later(119))).then([]);
    reader([registered(), armed('alice')]).when(expire(later(120))).then([ended('alice', 'expired', later(120))]);
    reader([registered(), armed('alice'), ended('alice', 'expired', later(120))]).when(expire(later(200))).then([]);
  });
});
