import { describe, expect, it } from 'vitest';
import type { TPresence, TPresentAccount } from '@rollcall/contracts';
import { REFETCH } from '../../live/live-cache';
import { patchPresence } from './presence.live';

const person = (accountId: string, name: string): TPresentAccount => ({
  account_id: accountId,
  account_name: name,
  username_readable: name.toLowerCase(),
  slot_id: `slot-${accountId}`,
  arrived_at: '2026-11-26T07:58:00.000Z',
  door: 'Main',
  reader_name: 'Main entrance',
  organizations: [{ id: 'o-1', title: 'Sales' }],
  teams: [],
});
const board: TPresence = { at: '2026-11-26T08:00:00.000Z', total: 2, present: [person('a', 'Ada'), person('b', 'Bob')] };
const changed = (accountId: string, present: boolean) => ({ kind: 'presence.changed' as const, account_id: accountId, present, at: '2026-11-26T16:30:00.000Z', position: '42' });

describe('live.attendance on the presence board', () => {
  it('takes whoever leaves off the board', () => {
    expect(patchPresence(board, {}, [changed('a', false)])).toEqual({ at: board.at, total: 1, present: [person('b', 'Bob')] });
  });

  it('leaves the board alone for someone not on it, and for scans and register mode', () => {
    expect(patchPresence(board, { team_id: '0190a3c6-0000-7000-8000-000000000001' }, [changed('c', false)])).toBe(board);
    expect(patchPresence(board, {}, [{ kind: 'scanner.register_mode', state: 'ended', account_id: 'a', reader_id: 'r', reason: 'expired', card_uid: null, expires_at: null, position: '43' }])).toBe(board);
  });

  it('fetches the board again for an arrival (no name, organizations or teams in the push) and a correction', () => {
    expect(patchPresence(board, {}, [changed('c', true)])).toBe(REFETCH);
    expect(patchPresence(board, {}, [changed('a', false), { kind: 'attendance.corrected', account_id: 'a', slot_id: 'slot-a', position: '44' }])).toBe(REFETCH);
  });
});
