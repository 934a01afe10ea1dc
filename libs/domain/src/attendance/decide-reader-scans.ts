import { decideEnrollmentScan, type EnrollmentOutcome } from '../reader/enrollment-scan';
import { readerDecider, readerStream, type ReaderEvent, type ReaderState } from '../reader/reader';
import { DomainError, fold } from '../shared';
import { normaliseCardUid } from '../smart-card/card-uid';
import { smartCardDecider, smartCardStream, type SmartCardEvent, type SmartCardState } from '../smart-card/smart-card';
import { attendanceDayDecider, attendanceDaysOfScan, attendanceDayStream, decideDoorScansInOrder, mergeAttendanceDays, type AttendanceDayEvent, type AttendanceDayState, type RecordDoorScan } from './attendance-day';
import type { AttendanceRules } from './attendance-rules';
import { recordScan, scanTimeProblem, type ReaderScan, type ScanFlag } from './recorded-scan';
import { classifySequences, scanLedgerDecider, scanLedgerStream, type ScanLedgerCommand, type ScanLedgerEvent, type ScanLedgerState } from './scan-ledger';

/**
 * A reader's request of scans, one or a batch, decided in one place (docs/adr/0013, 'A batch, step by
 * step'): the ledger judges each sequence (a retry is answered again and counts nothing; backwards,
 * invalid and reused sequences, malformed UIDs and impossible device times are refused scan by scan),
 * and each new scan becomes exactly one event in the stream of what it became: an account's day at a
 * door reader, the reader's ledger (an unknown card, a card that registered nothing), or a card and
 * the reader's register mode at an enrollment reader. The ledger's acknowledgement comes last.
 *
 * Pure: the caller reads the streams and rows named by `readerScanReads` and
 * `attendanceDayStreamsToRead`, hands them in, and appends what `decideReaderScans` returns in one
 * atomic append. Ids come from the caller's `newId`, time from `receivedAt`.
 */

/** One scan as the reader sent it: its UID not yet checked (a misread one is refused here, on its own). */
export interface SentScan {
  sequence: number;
  cardUid: string;
  deviceTime: string;
  /** the scan's age on the box's monotonic clock when the request was sent (absent from older agents) */
  ageMs?: number;
}

export type ReaderScanOutcome = 'arrival' | 'departure' | 'duplicate' | 'out_of_order' | EnrollmentOutcome;

/** The answer for one scan, in the request's order: the reader moves a refused scan aside, never sends it again. */
export type ReaderScanAck =
  | { sequence: number; status: 'accepted'; outcome: ReaderScanOutcome; flags: ScanFlag[] }
  | { sequence: number; status: 'already_accepted' }
  | { sequence: number; status: 'refused'; error: { code: string; message: string } };

export type ActiveReaderState = Extract<ReaderState, { status: 'active' }>;

/** The request, with the two streams every request reads: the reader (its token already checked) and its ledger. */
export interface ReaderScanRequest {
  reader: ActiveReaderState;
  ledger: ScanLedgerState;
  /** the agent's outbox (docs/adr/0013, 'Outboxes'); null from a client that names none */
  outboxId: string | null;
  /** the device clock when the request was sent */
  sentAt: string;
  /** the server clock when it arrived: the time of every event decided */
  receivedAt: string;
  scans: readonly SentScan[];
  rules: AttendanceRules;
}

/** A scan as the reader stored it with its acknowledgement. */
export interface AcknowledgedScan {
  cardUid: string;
  deviceTime: string;
}

export interface ReaderScanInput extends ReaderScanRequest {
  /**
   * For the sequences `readerScanReads` calls seen: the scan each was acknowledged with in the
   * reader's current numbering, as stored. A sequence missing here is taken as the retry it claims to be.
   */
  acknowledgedScans?: ReadonlyMap<number, AcknowledgedScan>;
  /** the state of `smart-card-{uid}` for every UID `readerScanReads` names */
  cards: ReadonlyMap<string, SmartCardState>;
  /**
   * Enrollment reader: the removal of each card whose holder's account was deleted (ADR 0013 leaves
   * it to the API), appended before the card registers again, so such a card is free, not 'taken'.
   */
  orphanedCardRemovals?: ReadonlyMap<string, readonly SmartCardEvent[]>;
  /** Door reader: the zone that draws each card holder's days; a holder without one (a deleted account) is an unknown card. */
  timeZones?: ReadonlyMap<string, string>;
  /** Door reader: the events of each stream `attendanceDayStreamsToRead` names, by stream id. */
  days?: ReadonlyMap<string, readonly AttendanceDayEvent[]>;
  /**
   * Door reader, instead of `days`: each such stream's state, folded by `attendanceDayDecider` from
   * its first event (a caller that keeps folded states folds only the events since, not the day's
   * every scan again). A stream found here is not looked up in `days`.
   */
  dayStates?: ReadonlyMap<string, AttendanceDayState>;
  /** a new id on each call: names each new scan (an arrival's slot) and a card registered at an enrollment reader */
  newId: () => string;
}

export type ReaderScanStreamEvent = ScanLedgerEvent | ReaderEvent | SmartCardEvent | AttendanceDayEvent;

export interface ReaderScansDecision {
  acks: ReaderScanAck[];
  /**
   * The streams to append to, in append order, each with its new events: the ledger first, then the
   * reader's (an enrollment reader only, listed even with no events: a request that appends nothing
   * answers with the newest position of what it read), the cards, the accounts' days.
   */
  writes: { streamId: string; events: ReaderScanStreamEvent[] }[];
}

/** What must be read, after the reader and its ledger, before the request can be decided. */
export interface ReaderScanReads {
  /** sequences acknowledged before: read the scans they were acknowledged with (`acknowledgedScans`) */
  seenSequences: number[];
  /** the cards of the new scans: read `smart-card-{uid}` for each */
  cardUids: string[];
}

export function readerScanReads(request: ReaderScanRequest): ReaderScanReads {
  const screened = screen(request);
  if (screened.retired) return { seenSequences: [], cardUids: [] };
  return { seenSequences: [...new Set(screened.seen.map(({ scan }) => scan.sequence))], cardUids: uidsOf(screened.fresh) };
}

/**
 * Door reader, once the cards and their holders' zones are read: the day streams the new scans are
 * decided on (each scan's day and the day before, per account), in the order to read them.
 */
export function attendanceDayStreamsToRead(input: ReaderScanRequest & Pick<ReaderScanInput, 'cards' | 'timeZones'>): string[] {
  const screened = screen(input);
  if (screened.retired || input.reader.role !== 'door') return [];
  const { byAccount } = sortDoorScans(screened.fresh, input);
  return [...byAccount].flatMap(([accountId, { timeZone, scans }]) => daysOf(scans, timeZone, input.rules).map((day) => attendanceDayStream(accountId, day)));
}

/** The acknowledgement of every scan, in the request's order, and the events to append in one append. */
export function decideReaderScans(input: ReaderScanInput): ReaderScansDecision {
  const screened = screen(input);
  const { scans } = input;
  const ledgerStreamId = scanLedgerStream(input.reader.readerId);
  if (screened.retired) {
    const { code, message } = screened.retired;
    return { acks: scans.map(({ sequence }) => refused(sequence, code, message)), writes: [{ streamId: ledgerStreamId, events: [] }] };
  }
  const acks: ReaderScanAck[] = new Array(scans.length);
  for (const [index, ack] of screened.refused) acks[index] = ack;
  answerSeen(acks, screened.seen, input.acknowledgedScans ?? new Map());
  const fresh: NewScan[] = screened.fresh.map(({ index, scan }) => ({ index, scan: { scanId: input.newId(), ...scan } }));
  const accept = (index: number, outcome: ReaderScanOutcome, flags: ScanFlag[]) => {
    acks[index] = { sequence: scans[index].sequence, status: 'accepted', outcome, flags };
  };
  const acknowledge: ScanLedgerCommand = { type: 'AcknowledgeScans', data: { readerId: input.reader.readerId, sequences: fresh.map(({ scan }) => scan.sequence), at: input.receivedAt } };
  const decided = input.reader.role === 'enrollment' ? decideEnrollmentScans(input, fresh, accept) : decideDoorScans(input, fresh, accept);
  const ledgerEvents = [...screened.outboxEvents, ...decided.ledger, ...decideInTurn(screened.ledger, [...decided.ledgerCommands, acknowledge])];
  return { acks, writes: [{ streamId: ledgerStreamId, events: ledgerEvents }, ...decided.writes] };
}

interface NewScan {
  /** the scan's place in the request */
  index: number;
  scan: ReaderScan;
}

type UnnamedScan = Omit<ReaderScan, 'scanId'>;

interface Screened {
  /** the request's outbox was replaced by a newer one: every scan is refused, nothing else happens */
  retired: DomainError | null;
  outboxEvents: ScanLedgerEvent[];
  /** the ledger after its outbox events, which the sequences are judged on */
  ledger: ScanLedgerState;
  refused: Map<number, ReaderScanAck>;
  /** sequences acknowledged before: a retry, unless the sequence was given to another scan */
  seen: { index: number; scan: SentScan }[];
  /** new sequences whose scan can be counted, in the order the reader numbered them */
  fresh: { index: number; scan: UnnamedScan }[];
}

/** What the reader and its ledger alone tell about each scan. */
function screen({ reader, ledger, outboxId, sentAt, receivedAt, scans, rules }: ReaderScanRequest): Screened {
  const { readerId } = reader;
  // a new outbox numbers from 1 again: its scans are judged against its own set, not the old one's
  let outboxEvents: ScanLedgerEvent[];
  try {
    outboxEvents = outboxId ? scanLedgerDecider.decide({ type: 'NoteScanOutbox', data: { readerId, outboxId, at: receivedAt } }, ledger) : [];
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== 'scan.outbox_retired') throw error;
    return { retired: error, outboxEvents: [], ledger, refused: new Map(), seen: [], fresh: [] };
  }
  const judgedOn = outboxEvents.reduce(scanLedgerDecider.evolve, ledger);
  const verdicts = classifySequences(judgedOn.acknowledged, scans.map((scan) => scan.sequence));
  const highest = judgedOn.acknowledged.at(-1)?.[1] ?? 0;
  const screened: Screened = { retired: null, outboxEvents, ledger: judgedOn, refused: new Map(), seen: [], fresh: [] };
  scans.forEach((sent, index) => {
    const { sequence } = sent;
    const verdict = verdicts[index];
    if (verdict === 'seen') screened.seen.push({ index, scan: sent });
    else if (verdict === 'backwards') screened.refused.set(index, refused(sequence, 'scan.sequence_backwards', `Sequence ${sequence} goes backwards: this reader's scans were acknowledged up to ${highest}`));
    else if (verdict === 'invalid') screened.refused.set(index, refused(sequence, 'scan.sequence_invalid', `Sequence ${sequence} is not a whole number from 1 up`));
    else {
      try {
        const cardUid = normaliseCardUid(sent.cardUid);
        const scan: UnnamedScan = { readerId, sequence, door: reader.door, cardUid, deviceTime: sent.deviceTime, sentAt, receivedAt, ...(sent.ageMs === undefined ? {} : { ageMs: sent.ageMs }) };
        const timeProblem = scanTimeProblem(scan, rules.clockSkewLimitSeconds);
        if (timeProblem) screened.refused.set(index, refused(sequence, 'scan.device_time_impossible', timeProblem));
        else screened.fresh.push({ index, scan });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        screened.refused.set(index, refused(sequence, error.code, error.message));
      }
    }
  });
  screened.fresh.sort((a, b) => a.scan.sequence - b.scan.sequence);
  return screened;
}

/**
 * A sequence seen before is a retry only when it is the same scan: an outbox rolled back (a restored
 * disk image) hands its numbers out again to new scans, which must not be answered as accepted.
 * Compared with the scan stored for the sequence (a sequence sent twice in one request, which the
 * contracts refuse in a batch, is judged by its last scan).
 */
function answerSeen(acks: ReaderScanAck[], seen: Screened['seen'], stored: ReadonlyMap<number, AcknowledgedScan>) {
  const lastSent = new Map(seen.map(({ scan }) => [scan.sequence, scan]));
  const reused = new Map<number, string>();
  for (const [sequence, now] of lastSent) {
    const was = stored.get(sequence);
    if (!was || sameScan(now, was)) continue;
    reused.set(
      sequence,
      `Sequence ${sequence} was already used by another scan (card ${was.cardUid} at ${was.deviceTime}) in this outbox: the outbox was rolled back (a restored disk image?); start a new outbox id and send this scan again`,
    );
  }
  for (const { index, scan } of seen) {
    const reuse = reused.get(scan.sequence);
    acks[index] = reuse ? refused(scan.sequence, 'scan.sequence_reused', reuse) : { sequence: scan.sequence, status: 'already_accepted' };
  }
}

function sameScan(now: SentScan, was: AcknowledgedScan): boolean {
  let cardUid: string;
  try {
    cardUid = normaliseCardUid(now.cardUid);
  } catch {
    cardUid = now.cardUid;
  }
  return cardUid === was.cardUid && Date.parse(now.deviceTime) === Date.parse(was.deviceTime);
}

interface BranchDecision {
  /** ledger events decided by the branch itself, before its commands' */
  ledger: ScanLedgerEvent[];
  ledgerCommands: ScanLedgerCommand[];
  writes: ReaderScansDecision['writes'];
}

type Accept = (index: number, outcome: ReaderScanOutcome, flags: ScanFlag[]) => void;

/** An enrollment reader: each scan on the reader and card the previous ones left (docs/adr/0013, enrollment). */
function decideEnrollmentScans(input: ReaderScanInput, fresh: NewScan[], accept: Accept): BranchDecision {
  const { rules } = input;
  const removals = input.orphanedCardRemovals ?? new Map<string, readonly SmartCardEvent[]>();
  const cards = new Map<string, SmartCardState>();
  const cardEvents = new Map<string, SmartCardEvent[]>();
  for (const uid of uidsOf(fresh)) {
    const removal = removals.get(uid) ?? [];
    cards.set(uid, removal.reduce(smartCardDecider.evolve, cardOf(input, uid)));
    if (removal.length) cardEvents.set(uid, [...removal]);
  }
  const readerEvents: ReaderEvent[] = [];
  const ledger: ScanLedgerEvent[] = [];
  let reader: ReaderState = input.reader;
  for (const { index, scan } of fresh) {
    const card = cards.get(scan.cardUid) as SmartCardState;
    const decision = decideEnrollmentScan({ reader, card, scan, cardId: input.newId(), clockSkewLimitSeconds: rules.clockSkewLimitSeconds });
    readerEvents.push(...decision.reader);
    reader = decision.reader.reduce(readerDecider.evolve, reader);
    if (decision.card.length) {
      cardEvents.set(scan.cardUid, [...(cardEvents.get(scan.cardUid) ?? []), ...decision.card]);
      cards.set(scan.cardUid, decision.card.reduce(smartCardDecider.evolve, card));
    }
    ledger.push(...decision.ledger);
    accept(index, decision.outcome, recordScan(scan, rules.clockSkewLimitSeconds).flags);
  }
  const writes: ReaderScansDecision['writes'] = [{ streamId: readerStream(input.reader.readerId), events: readerEvents }];
  for (const [uid, events] of cardEvents) writes.push({ streamId: smartCardStream(uid), events });
  return { ledger, ledgerCommands: [], writes };
}

/** A door reader: known cards toggle their account's days, unknown ones go to the ledger. */
function decideDoorScans(input: ReaderScanInput, fresh: NewScan[], accept: Accept): BranchDecision {
  const { rules } = input;
  const { unknown, byAccount } = sortDoorScans(fresh, input);
  const ledgerCommands: ScanLedgerCommand[] = [];
  for (const { index, scan } of unknown) {
    ledgerCommands.push({ type: 'RecordUnknownCard', data: { scan, clockSkewLimitSeconds: rules.clockSkewLimitSeconds } });
    accept(index, 'unknown_card', recordScan(scan, rules.clockSkewLimitSeconds).flags);
  }
  const writes: ReaderScansDecision['writes'] = [];
  for (const [accountId, { timeZone, scans }] of byAccount) {
    const days = daysOf(scans, timeZone, rules);
    const streams = days.map((day) => attendanceDayStream(accountId, day));
    const states = streams.map((streamId) => {
      const folded = input.dayStates?.get(streamId);
      if (folded) return folded;
      const events = input.days?.get(streamId);
      if (!events) throw new Error(`day stream ${streamId} was not read`);
      return fold(attendanceDayDecider, events);
    });
    const commands: RecordDoorScan[] = scans.map(({ scan }) => ({ type: 'RecordDoorScan', data: { accountId, timeZone, scan, rules } }));
    const decided = decideDoorScansInOrder(mergeAttendanceDays(states), commands);
    const byDay = new Map<string, AttendanceDayEvent[]>();
    decided.forEach((events, position) => {
      for (const event of events) byDay.set(event.data.day, [...(byDay.get(event.data.day) ?? []), event]);
      accept(scans[position].index, ...outcomeOf(events));
    });
    for (const [day, events] of byDay) {
      if (!days.includes(day)) throw new Error(`a scan decided into day ${day}, which was not read`);
      writes.push({ streamId: attendanceDayStream(accountId, day), events });
    }
  }
  return { ledger: [], ledgerCommands, writes };
}

/**
 * A door reader's new scans: those of a card no living account holds are unknown cards; the others
 * grouped by account (in the order of each account's first scan), with the zone that draws its days.
 */
function sortDoorScans<Scan extends UnnamedScan>(fresh: { index: number; scan: Scan }[], input: Pick<ReaderScanInput, 'cards' | 'timeZones'>) {
  const unknown: { index: number; scan: Scan }[] = [];
  const byAccount = new Map<string, { timeZone: string; scans: { index: number; scan: Scan }[] }>();
  for (const entry of fresh) {
    const card = cardOf(input, entry.scan.cardUid);
    const timeZone = card.status === 'registered' ? input.timeZones?.get(card.accountId) : undefined;
    if (card.status !== 'registered' || !timeZone) {
      unknown.push(entry);
      continue;
    }
    const group = byAccount.get(card.accountId) ?? { timeZone, scans: [] };
    group.scans.push(entry);
    byAccount.set(card.accountId, group);
  }
  return { unknown, byAccount };
}

/** the days an account's scans are decided on, each scan's day and the day before, in date order */
const daysOf = (scans: { scan: UnnamedScan }[], timeZone: string, rules: AttendanceRules) =>
  [...new Set(scans.flatMap(({ scan }) => attendanceDaysOfScan(scan, timeZone, rules)))].sort();

const uidsOf = (fresh: { scan: UnnamedScan }[]) => [...new Set(fresh.map(({ scan }) => scan.cardUid))];

function cardOf(input: Pick<ReaderScanInput, 'cards'>, uid: string): SmartCardState {
  const card = input.cards.get(uid);
  if (!card) throw new Error(`card ${uid} was not read`);
  return card;
}

/** the ledger's commands, each decided on the state the previous ones left */
function decideInTurn(state: ScanLedgerState, commands: ScanLedgerCommand[]): ScanLedgerEvent[] {
  const events: ScanLedgerEvent[] = [];
  let current = state;
  for (const command of commands) {
    const decided = scanLedgerDecider.decide(command, current);
    current = decided.reduce(scanLedgerDecider.evolve, current);
    events.push(...decided);
  }
  return events;
}

const refused = (sequence: number, code: string, message: string): ReaderScanAck => ({ sequence, status: 'refused', error: { code, message } });

/** what a door scan became: the event carrying the scan (an open-day flag may come before it) */
function outcomeOf(events: AttendanceDayEvent[]): [ReaderScanOutcome, ScanFlag[]] {
  for (const event of events) {
    if (event.type === 'ArrivalRecorded') return ['arrival', event.data.scan.flags];
    if (event.type === 'DepartureRecorded') return ['departure', event.data.scan.flags];
    if (event.type === 'UncountedScanRecorded') return [event.data.reason, event.data.scan.flags];
  }
  throw new Error('a door scan decided into no scan event');
}
