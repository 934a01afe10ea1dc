import { QueryClient } from '@tanstack/react-query';
import { createTRPCQueryUtils } from '@trpc/react-query';
import { describe, expect, it } from 'vitest';
import { toPage, type TArrivalDeparture, type TArrivalsDeparturesInput, type TAttendanceLiveMessage } from '@rollcall/contracts';
import { applyLiveMessages, REFETCH } from '../../live/live-cache';
import { trpc } from '../../trpc';
import { arrivalsDeparturesLive, patchArrivalsDepartures } from './arrivals-departures.live';

const ada = '0190a3c6-0000-7000-8000-00000000000a';
const bob = '0190a3c6-0000-7000-8000-00000000000b';
const mainDoor = { reader_id: 'r-main', reader_name: 'Main entrance', door: 'Main' };

const slot = (id: string, accountId: string, overrides: Partial<TArrivalDeparture> = {}): TArrivalDeparture => ({
  id,
  account_id: accountId,
  account_name: accountId === ada ? 'Ada Lovelace' : 'Bob Builder',
  username_readable: accountId === ada ? 'ada' : 'bob',
  day: '2026-11-26',
  arrived_at: '2026-11-26T07:58:00.000Z',
  departed_at: null,
  arrival: mainDoor,
  departure: null,
  flags: [],
  uncounted_scans: 0,
  corrected: false,
  corrections: [],
  ...overrides,
});
const pageOf = (...rows: TArrivalDeparture[]) => toPage(rows, rows.length, 1, 10);
const input: TArrivalsDeparturesInput = { page: 1, limit: 10, sortBy: 'arrived_at', desc: true };

const scan = (outcome: 'arrival' | 'departure' | 'duplicate', accountId: string, slotId: string | null, overrides: Partial<Extract<TAttendanceLiveMessage, { kind: 'attendance.scan' }>> = {}): TAttendanceLiveMessage => ({
  kind: 'attendance.scan',
  outcome,
  account_id: accountId,
  slot_id: slotId,
  reader_id: 'r-main',
  door: 'Main',
  at: '2026-11-26T16:30:00.000Z',
  flags: [],
  position: '42',
  ...overrides,
});

describe('live.attendance on the Arrivals / Departures log', () => {
  it('shows a departure in its row, as the log would answer it', () => {
    const log = pageOf(slot('s-ada', ada, { flags: ['clock_skew'] }), slot('s-bob', bob));
    const next = patchArrivalsDepartures(log, input, [scan('departure', ada, 's-ada', { flags: ['clock_skew', 'two_doors'] }), { kind: 'presence.changed', account_id: ada, present: false, at: '2026-11-26T16:30:00.000Z', position: '42' }]);
    expect(next).toEqual(
      pageOf(slot('s-ada', ada, { departed_at: '2026-11-26T16:30:00.000Z', departure: { reader_id: 'r-main', reader_name: 'Main entrance', door: 'Main' }, flags: ['clock_skew', 'two_doors'] }), slot('s-bob', bob)),
    );
  });

  it('names the departure reader from the page, and fetches the page again when no row shows it', () => {
    const log = pageOf(slot('s-ada', ada), slot('s-bob', bob, { departure: { reader_id: 'r-side', reader_name: 'Side door', door: 'Side' }, departed_at: '2026-11-26T12:00:00.000Z' }));
    const next = patchArrivalsDepartures(log, input, [scan('departure', ada, 's-ada', { reader_id: 'r-side', door: 'Side' })]);
    expect(next !== REFETCH && next.data[0].departure).toEqual({ reader_id: 'r-side', reader_name: 'Side door', door: 'Side' });
    expect(patchArrivalsDepartures(log, input, [scan('departure', ada, 's-ada', { reader_id: 'r-garage', door: 'Garage' })])).toBe(REFETCH);
  });

  it('leaves a page alone that a scan cannot change', () => {
    const log = pageOf(slot('s-bob', bob));
    expect(patchArrivalsDepartures(log, input, [scan('departure', ada, 's-ada')])).toBe(log);
    expect(patchArrivalsDepartures(log, { ...input, account_id: bob }, [scan('arrival', ada, 's-ada2')])).toBe(log);
    expect(patchArrivalsDepartures(log, input, [scan('duplicate', ada, null)])).toBe(log);
    expect(patchArrivalsDepartures(log, input, [{ kind: 'attendance.scan', outcome: 'unknown_card', account_id: null, slot_id: null, reader_id: 'r-main', door: 'Main', at: '2026-11-26T16:30:00.000Z', flags: [], position: '43' }])).toBe(log);
  });

  it('fetches the page again for what the push does not carry: a new arrival, a scan that counted nothing on a row shown, a correction, a departure that reorders', () => {
    const log = pageOf(slot('s-ada', ada));
    expect(patchArrivalsDepartures(log, input, [scan('arrival', bob, 's-bob')])).toBe(REFETCH);
    expect(patchArrivalsDepartures(log, input, [scan('duplicate', ada, null)])).toBe(REFETCH);
    expect(patchArrivalsDepartures(log, input, [{ kind: 'attendance.corrected', account_id: bob, slot_id: 's-bob', position: '44' }])).toBe(REFETCH);
    expect(patchArrivalsDepartures(log, { ...input, sortBy: 'account' }, [{ kind: 'attendance.corrected', account_id: bob, slot_id: 's-bob', position: '44' }])).toBe(log);
    expect(patchArrivalsDepartures(log, { ...input, sortBy: 'departed_at' }, [scan('departure', ada, 's-ada')])).toBe(REFETCH);
    expect(patchArrivalsDepartures(pageOf(slot('s-bob', bob)), { ...input, reader_id: 'r-main' }, [scan('departure', ada, 's-ada')])).toBe(REFETCH);
  });

  it('reaches the answers the console cached under tRPC\'s keys', () => {
    const queryClient = new QueryClient();
    const utils = createTRPCQueryUtils({ queryClient, client: trpc.createClient({ links: [] }) });
    utils.arrivalsDepartures.list.setData(input, pageOf(slot('s-ada', ada)));
    utils.arrivalsDepartures.list.setData({ ...input, page: 2 }, pageOf(slot('s-bob', bob)));
    const refetch = applyLiveMessages(queryClient, [arrivalsDeparturesLive], [scan('departure', ada, 's-ada')]);
    expect(refetch).toEqual([]);
    expect(utils.arrivalsDepartures.list.getData(input)?.data[0].departed_at).toBe('2026-11-26T16:30:00.000Z');
    expect(applyLiveMessages(queryClient, [arrivalsDeparturesLive], [scan('arrival', bob, 's-bob2')])).toHaveLength(2);
  });
});
