import { getQueryKey } from '@trpc/react-query';
import type { TArrivalDeparture, TArrivalsDeparturesInput, TAttendanceLiveMessage, TPage } from '@rollcall/contracts';
import { liveCacheRule, REFETCH } from '../../live/live-cache';
import { trpc } from '../../trpc';

type Log = TPage<TArrivalDeparture>;
type Scan = Extract<TAttendanceLiveMessage, { kind: 'attendance.scan' }>;

/** whether a slot of this scan's account and reader can be listed under the input's filters (the day and organization are the server's to tell) */
const mayList = (input: TArrivalsDeparturesInput, scan: Scan) => (!input.account_id || input.account_id === scan.account_id) && (!input.reader_id || input.reader_id === scan.reader_id);

/** a reader's name as a row of the page already shows it (the push carries its id and door only) */
function readerName(log: Log, readerId: string): string | null | undefined {
  for (const row of log.data) {
    if (row.arrival?.reader_id === readerId) return row.arrival.reader_name;
    if (row.departure?.reader_id === readerId) return row.departure.reader_name;
  }
  return undefined;
}

/**
 * A departure scan closes its slot: the row shows the departure's time, door and reader, with the
 * scan's flags added (as attendance_slots_v1 merges them). Everything else is fetched again.
 */
function depart(log: Log, input: TArrivalsDeparturesInput, scan: Scan): Log | typeof REFETCH {
  // sorted by departure, the row moves (perhaps onto this page)
  if (input.sortBy === 'departed_at') return mayList(input, scan) ? REFETCH : log;
  const index = log.data.findIndex((row) => row.id === scan.slot_id);
  // a slot off this page stays off it, unless the reader filter now finds it by its departure
  if (index === -1) return input.reader_id === scan.reader_id ? REFETCH : log;
  const row = log.data[index];
  const name = readerName(log, scan.reader_id);
  if (name === undefined) return REFETCH;
  const departed: TArrivalDeparture = { ...row, departed_at: scan.at, departure: { reader_id: scan.reader_id, reader_name: name, door: scan.door }, flags: [...new Set([...row.flags, ...scan.flags])] };
  return { ...log, data: log.data.map((candidate, at) => (at === index ? departed : candidate)) };
}

/**
 * live.attendance on the Arrivals / Departures log, one cached page at a time. A departure is
 * applied in place; a new arrival (whose account name the push does not carry, and which moves
 * every row after it), a scan that counted nothing (it changes the account's latest slot, which the
 * push does not name) and a correction (its times and reason are not pushed) fetch the page again
 * where they can change it. Unknown cards, presence and register mode are not in the log.
 */
export function patchArrivalsDepartures(log: Log, input: TArrivalsDeparturesInput, messages: readonly TAttendanceLiveMessage[]): Log | typeof REFETCH {
  let next = log;
  for (const message of messages) {
    if (message.kind === 'attendance.corrected') {
      // a corrected time can move the slot between pages, unless the page is sorted by account
      if (input.sortBy !== 'account' || next.data.some((row) => row.id === message.slot_id)) return REFETCH;
    } else if (message.kind === 'attendance.scan' && message.account_id !== null) {
      if (message.outcome === 'arrival') {
        if (mayList(input, message)) return REFETCH;
      } else if (message.outcome === 'departure') {
        const departed = depart(next, input, message);
        if (departed === REFETCH) return REFETCH;
        next = departed;
      } else if (next.data.some((row) => row.account_id === message.account_id)) return REFETCH;
    }
  }
  return next;
}

export const arrivalsDeparturesLive = liveCacheRule(getQueryKey(trpc.arrivalsDepartures.list), patchArrivalsDepartures);
