import { describe, expect, it } from 'vitest';
import { readerDecider, readerStream, type ReaderEvent, type ReaderRole } from '../reader/reader';
import { fold, type DomainEvent } from '../shared';
import { smartCardDecider, smartCardStream, type SmartCardEvent, type SmartCardState } from '../smart-card/smart-card';
import { attendanceDayDecider, attendanceDayStream, type AttendanceDayEvent } from './attendance-day';
import { DEFAULT_ATTENDANCE_RULES } from './attendance-rules';
import {
  attendanceDayStreamsToRead,
  decideReaderScans,
  readerScanReads,
  type AcknowledgedScan,
  type ReaderScanRequest,
  type ReaderScansDecision,
  type SentScan,
} from './decide-reader-scans';
import type { ReaderScan, RecordedScan, ScanFlag } from './recorded-scan';
import { scanLedgerDecider, scanLedgerStream, type ScanLedgerEvent, type SequenceRange } from './scan-ledger';

/*
 * Each test gives the streams as they were stored (and which accounts exist, with their zones), sends
 * a request, and reads what the decision answers and appends. The harness plays the API's handler:
 * it reads only what readerScanReads and attendanceDayStreamsToRead name, and records what it read.
 */

const readerId = 'reader-front';
const enrollmentReaderId = 'reader-desk';
// Berlin is UTC+1 in November: 07:00Z is 08:00 local
const berlin = 'Europe/Berlin';
const receivedAt = '2026-11-23T07:00:00.000Z';
const minutes = (count: number) => new Date(Date.parse(receivedAt) + count * 60_000).toISOString();
const rules = DEFAULT_ATTENDANCE_RULES;

const alicesCard = '04A1B2C3';
const bobsCard = '04B0B0B0';
const unknownCard = 'DEADBEEF';

interface World {
  /** stored events by stream id */
  streams?: Record<string, DomainEvent[]>;
  /** the accounts that exist, with the zone that draws their days */
  accounts?: Record<string, string>;
  /** for each sequence the ledger acknowledged: the scan stored with it */
  stored?: Record<number, AcknowledgedScan>;
}

interface Sent {
  scans: SentScan[];
  outboxId?: string | null;
  sentAt?: string;
  reader?: string;
}

/** everything the harness read beyond the reader and its ledger, in order */
interface Reads {
  seenSequences: number[];
  cards: string[];
  days: string[];
}

function send(world: World, { scans, outboxId = null, sentAt = receivedAt, reader: id = readerId }: Sent): ReaderScansDecision & { reads: Reads } {
  const streams = world.streams ?? {};
  const accounts = world.accounts ?? {};
  const reader = fold(readerDecider, (streams[readerStream(id)] ?? []) as ReaderEvent[]);
  if (reader.status !== 'active') throw new Error('the handler refuses a request from a reader that is not active');
  const ledger = fold(scanLedgerDecider, (streams[scanLedgerStream(id)] ?? []) as ScanLedgerEvent[]);
  const request: ReaderScanRequest = { reader, ledger, outboxId, sentAt, receivedAt, scans, rules };

  const { seenSequences, cardUids } = readerScanReads(request);
  const acknowledgedScans = new Map(seenSequences.flatMap((sequence) => (world.stored?.[sequence] ? [[sequence, world.stored[sequence]] as const] : [])));
  const cards = new Map(cardUids.map((uid) => [uid, fold(smartCardDecider, (streams[smartCardStream(uid)] ?? []) as SmartCardEvent[])]));
  const holders = [...cards.values()].flatMap((card) => (card.status === 'registered' ? [card.accountId] : []));
  const timeZones = new Map(holders.flatMap((accountId) => (accounts[accountId] ? [[accountId, accounts[accountId]] as const] : [])));
  // as the API frees a card whose holder's account was deleted, at an enrollment reader
  const orphanedCardRemovals = new Map<string, SmartCardEvent[]>();
  if (reader.role === 'enrollment') {
    for (const [uid, card] of cards) {
      if (card.status !== 'registered' || accounts[card.accountId]) continue;
      orphanedCardRemovals.set(uid, smartCardDecider.decide({ type: 'RemoveSmartCard', data: { cardId: card.cardId, removedBy: id, at: receivedAt } }, card));
    }
  }
  const dayStreams = attendanceDayStreamsToRead({ ...request, cards, timeZones });
  const days = new Map(dayStreams.map((streamId) => [streamId, (streams[streamId] ?? []) as AttendanceDayEvent[]]));

  let ids = 0;
  const decision = decideReaderScans({ ...request, acknowledgedScans, cards, orphanedCardRemovals, timeZones, days, newId: () => `id-${++ids}` });
  // a caller that keeps each day folded on its own (the API's StreamStateCache) gets the same decision
  const dayStates = new Map([...days].map(([streamId, events]) => [streamId, fold(attendanceDayDecider, events)]));
  ids = 0;
  expect(decideReaderScans({ ...request, acknowledgedScans, cards, orphanedCardRemovals, timeZones, dayStates, newId: () => `id-${++ids}` })).toEqual(decision);
  return { ...decision, reads: { seenSequences, cards: cardUids, days: dayStreams } };
}

// --- the streams as stored ---

const readerRegistered = (role: ReaderRole, id = role === 'door' ? readerId : enrollmentReaderId): ReaderEvent => ({
  type: 'DoorReaderRegistered',
  data: { readerId: id, name: role === 'door' ? 'Front door' : 'Front desk', door: role === 'door' ? 'Front' : 'Lobby', role, registeredAt: minutes(-600) },
});
const armedFor = (accountId: string): ReaderEvent => ({ type: 'RegisterModeStarted', data: { readerId: enrollmentReaderId, accountId, startedBy: 'admin', expiresAt: minutes(2), startedAt: minutes(-1) } });
const doorReader = { [readerStream(readerId)]: [readerRegistered('door')] };
const enrollmentReader = (...events: ReaderEvent[]) => ({ [readerStream(enrollmentReaderId)]: [readerRegistered('enrollment'), ...events] });

const cardRegistered = (uid: string, accountId: string, cardId = `card-of-${accountId}`): SmartCardEvent => ({
  type: 'SmartCardRegistered',
  data: { cardId, cardUid: uid, accountId, via: 'assignment', registeredBy: 'admin', scan: null, registeredAt: minutes(-600) },
});
const cards = { [smartCardStream(alicesCard)]: [cardRegistered(alicesCard, 'alice')], [smartCardStream(bobsCard)]: [cardRegistered(bobsCard, 'bob')] };

const acknowledged = (sequences: number[], ranges: SequenceRange[], id = readerId): ScanLedgerEvent => ({ type: 'ScansAcknowledged', data: { readerId: id, sequences, acknowledged: ranges, at: receivedAt } });
const outboxChanged = (outboxId: string, previousOutboxId: string | null, previous: SequenceRange[]): ScanLedgerEvent => ({
  type: 'ScanOutboxChanged',
  data: { readerId, outboxId, previousOutboxId, previous, at: receivedAt },
});
const ledgerUpTo3 = { [scanLedgerStream(readerId)]: [acknowledged([1, 2, 3], [[1, 3]])] };

// --- what the reader sends, and what the events keep of it ---

const sent = (sequence: number, cardUid: string, deviceTime = receivedAt, changes: Partial<SentScan> = {}): SentScan => ({ sequence, cardUid, deviceTime, ...changes });
/** the scan as the decision names it: `id` is the nth id handed out */
const scanOf = (id: number, { sequence, cardUid, deviceTime }: SentScan, at: { reader?: string; door?: string; sentAt?: string } = {}): ReaderScan => ({
  scanId: `id-${id}`,
  readerId: at.reader ?? readerId,
  sequence,
  door: at.door ?? 'Front',
  cardUid,
  deviceTime,
  sentAt: at.sentAt ?? receivedAt,
  receivedAt,
});
const recorded = (scan: ReaderScan, flags: ScanFlag[] = [], changes: Partial<RecordedScan> = {}): RecordedScan => ({ ...scan, skewMs: 0, at: scan.deviceTime, flags, ...changes });

const arrival = (accountId: string, day: string, scan: ReaderScan, flags: ScanFlag[] = []): AttendanceDayEvent => ({ type: 'ArrivalRecorded', data: { accountId, day, slotId: scan.scanId, scan: recorded(scan, flags) } });
const departure = (accountId: string, day: string, slotId: string, scan: ReaderScan): AttendanceDayEvent => ({ type: 'DepartureRecorded', data: { accountId, day, slotId, scan: recorded(scan) } });
const unknownCardScanned = (scan: ReaderScan, id = readerId): ScanLedgerEvent => ({ type: 'UnknownCardScanned', data: { readerId: id, scan: recorded(scan) } });

const accepted = (sequence: number, outcome: string, flags: ScanFlag[] = []) => ({ sequence, status: 'accepted', outcome, flags });
const refusedAck = (sequence: number, code: string, message: string) => ({ sequence, status: 'refused', error: { code, message } });
const alreadyAccepted = (sequence: number) => ({ sequence, status: 'already_accepted' });

const ledgerWrite = (events: ScanLedgerEvent[], id = readerId) => ({ streamId: scanLedgerStream(id), events });
const dayWrite = (accountId: string, day: string, events: AttendanceDayEvent[]) => ({ streamId: attendanceDayStream(accountId, day), events });

describe('a door reader', () => {
  const world: World = { streams: { ...doorReader, ...cards }, accounts: { alice: berlin, bob: 'UTC' } };

  it("turns a known card's first scan into an arrival in its holder's day, and acknowledges it after", () => {
    const scan = sent(1, alicesCard);
    const decision = send(world, { scans: [scan] });
    expect(decision.acks).toEqual([accepted(1, 'arrival')]);
    expect(decision.writes).toEqual([ledgerWrite([acknowledged([1], [[1, 1]])]), dayWrite('alice', '2026-11-23', [arrival('alice', '2026-11-23', scanOf(1, scan))])]);
    expect(decision.reads).toEqual({ seenSequences: [], cards: [alicesCard], days: [attendanceDayStream('alice', '2026-11-22'), attendanceDayStream('alice', '2026-11-23')] });
  });

  it('turns the next scan into the departure of the open slot', () => {
    const morning = scanOf(9, sent(1, alicesCard, minutes(-240)));
    const opened = { streams: { ...world.streams, ...ledgerUpTo3, [attendanceDayStream('alice', '2026-11-23')]: [arrival('alice', '2026-11-23', morning)] }, accounts: world.accounts };
    const scan = sent(4, alicesCard);
    const decision = send(opened, { scans: [scan] });
    expect(decision.acks).toEqual([accepted(4, 'departure')]);
    expect(decision.writes).toEqual([ledgerWrite([acknowledged([4], [[1, 4]])]), dayWrite('alice', '2026-11-23', [departure('alice', '2026-11-23', 'id-9', scanOf(1, scan))])]);
  });

  it('decides a shuffled batch in the order the reader numbered it, each scan on what the previous left, and answers in the order sent', () => {
    const out = sent(2, alicesCard, minutes(-60));
    const arrive = sent(1, alicesCard, minutes(-300));
    const again = sent(3, alicesCard, '2026-11-23T06:00:30.000Z');
    const decision = send(world, { scans: [out, again, arrive] });
    expect(decision.acks).toEqual([accepted(2, 'departure'), accepted(3, 'duplicate'), accepted(1, 'arrival')]);
    const [arriving, leaving, repeated] = [scanOf(1, arrive), scanOf(2, out), scanOf(3, again)];
    expect(decision.writes).toEqual([
      ledgerWrite([acknowledged([1, 2, 3], [[1, 3]])]),
      dayWrite('alice', '2026-11-23', [
        arrival('alice', '2026-11-23', arriving),
        departure('alice', '2026-11-23', 'id-1', leaving),
        { type: 'UncountedScanRecorded', data: { accountId: 'alice', day: '2026-11-23', scan: recorded(repeated), reason: 'duplicate' } },
      ]),
    ]);
  });

  it("closes last night's slot in the slot's own day, deciding on both days it read (a night shift)", () => {
    const lateEvening = scanOf(9, sent(1, alicesCard, '2026-11-22T21:00:00.000Z')); // 22:00 in Berlin on the 22nd
    const night = { streams: { ...world.streams, ...ledgerUpTo3, [attendanceDayStream('alice', '2026-11-22')]: [arrival('alice', '2026-11-22', lateEvening)] }, accounts: world.accounts };
    const nextMorning = sent(4, alicesCard, '2026-11-23T05:00:00.000Z'); // 06:00 on the 23rd
    const decision = send(night, { scans: [nextMorning] });
    expect(decision.acks).toEqual([accepted(4, 'departure')]);
    expect(decision.writes).toEqual([ledgerWrite([acknowledged([4], [[1, 4]])]), dayWrite('alice', '2026-11-22', [departure('alice', '2026-11-22', 'id-9', scanOf(1, nextMorning))])]);
  });

  it('reads every day a batch spans, once, and writes each day its own events: an open-day flag goes to its slot\'s day', () => {
    const saturday = sent(1, alicesCard, '2026-11-21T08:00:00.000Z'); // queued two days, sent now
    const monday = sent(2, alicesCard, '2026-11-23T06:00:00.000Z');
    const decision = send(world, { scans: [saturday, monday] });
    expect(decision.reads.days).toEqual(['2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23'].map((day) => attendanceDayStream('alice', day)));
    expect(decision.acks).toEqual([accepted(1, 'arrival'), accepted(2, 'arrival')]);
    expect(decision.writes).toEqual([
      ledgerWrite([acknowledged([1, 2], [[1, 2]])]),
      dayWrite('alice', '2026-11-21', [
        arrival('alice', '2026-11-21', scanOf(1, saturday)),
        { type: 'OpenDayFlagged', data: { accountId: 'alice', day: '2026-11-21', slotId: 'id-1', arrivedAt: saturday.deviceTime, openDayLimitHours: 16, flaggedAt: receivedAt } },
      ]),
      dayWrite('alice', '2026-11-23', [arrival('alice', '2026-11-23', scanOf(2, monday))]),
    ]);
  });

  it('keeps the scans of several accounts apart: each account decided on its own days, in the order of its first scan', () => {
    const bobArrives = sent(1, bobsCard, '2026-11-23T06:30:00.000Z');
    const aliceArrives = sent(2, alicesCard, '2026-11-23T06:40:00.000Z');
    const bobLeaves = sent(3, bobsCard, '2026-11-23T06:50:00.000Z');
    const decision = send(world, { scans: [bobArrives, aliceArrives, bobLeaves] });
    expect(decision.acks).toEqual([accepted(1, 'arrival'), accepted(2, 'arrival'), accepted(3, 'departure')]);
    expect(decision.reads.days).toEqual([attendanceDayStream('bob', '2026-11-22'), attendanceDayStream('bob', '2026-11-23'), attendanceDayStream('alice', '2026-11-22'), attendanceDayStream('alice', '2026-11-23')]);
    expect(decision.writes).toEqual([
      ledgerWrite([acknowledged([1, 2, 3], [[1, 3]])]),
      dayWrite('bob', '2026-11-23', [arrival('bob', '2026-11-23', scanOf(1, bobArrives)), departure('bob', '2026-11-23', 'id-1', scanOf(3, bobLeaves))]),
      dayWrite('alice', '2026-11-23', [arrival('alice', '2026-11-23', scanOf(2, aliceArrives))]),
    ]);
  });

  it("draws each holder's day in the holder's zone: 23:30 UTC is tomorrow in Berlin, today in UTC", () => {
    const lateNight = '2026-11-22T23:30:00.000Z';
    const decision = send(world, { scans: [sent(1, alicesCard, lateNight), sent(2, bobsCard, lateNight)] });
    expect(decision.writes.map(({ streamId }) => streamId)).toEqual([scanLedgerStream(readerId), attendanceDayStream('alice', '2026-11-23'), attendanceDayStream('bob', '2026-11-22')]);
  });

  it('keeps an unknown card in the ledger, before the acknowledgement, and reads no day for it', () => {
    const scan = sent(1, unknownCard);
    const decision = send(world, { scans: [scan] });
    expect(decision.acks).toEqual([accepted(1, 'unknown_card')]);
    expect(decision.writes).toEqual([ledgerWrite([unknownCardScanned(scanOf(1, scan)), acknowledged([1], [[1, 1]])])]);
    expect(decision.reads.days).toEqual([]);
  });

  it("takes the card of a holder with no zone (a deleted account's) as unknown, and leaves the card alone", () => {
    const scan = sent(1, bobsCard);
    const decision = send({ streams: world.streams, accounts: { alice: berlin } }, { scans: [scan] });
    expect(decision.acks).toEqual([accepted(1, 'unknown_card')]);
    expect(decision.writes).toEqual([ledgerWrite([unknownCardScanned(scanOf(1, scan)), acknowledged([1], [[1, 1]])])]);
  });

  it('normalises the UID as sent, so every spelling of a card is the same card', () => {
    const decision = send(world, { scans: [sent(1, '04:a1:b2:c3')] });
    expect(decision.acks).toEqual([accepted(1, 'arrival')]);
    expect(decision.reads.cards).toEqual([alicesCard]);
  });

  it("flags a device clock that is off, and counts the scan at the server's time", () => {
    const slow = sent(1, alicesCard, minutes(-10));
    const decision = send(world, { scans: [slow], sentAt: minutes(-10) });
    expect(decision.acks).toEqual([accepted(1, 'arrival', ['clock_skew'])]);
    const scan = scanOf(1, slow, { sentAt: minutes(-10) });
    expect(decision.writes[1]).toEqual(dayWrite('alice', '2026-11-23', [{ type: 'ArrivalRecorded', data: { accountId: 'alice', day: '2026-11-23', slotId: 'id-1', scan: recorded(scan, ['clock_skew'], { skewMs: 600_000, at: receivedAt }) } }]));
  });

  it("keeps the scan's age when the agent sent one, and places the scan with it", () => {
    const aged = sent(1, alicesCard, '2030-01-01T00:00:00.000Z', { ageMs: 60_000 });
    const decision = send(world, { scans: [aged] });
    expect(decision.acks).toEqual([accepted(1, 'arrival', ['clock_skew'])]);
    const [event] = decision.writes[1].events as AttendanceDayEvent[];
    expect(event).toMatchObject({ type: 'ArrivalRecorded', data: { scan: { ageMs: 60_000, at: minutes(-1), flags: ['clock_skew'] } } });
  });
});

describe('scans refused one by one', () => {
  const world: World = { streams: { ...doorReader, ...cards, ...ledgerUpTo3 }, accounts: { alice: berlin } };

  it('refuses a malformed UID on its own; the rest of the batch counts', () => {
    const decision = send(world, { scans: [sent(4, 'not a card'), sent(5, alicesCard)] });
    expect(decision.acks).toEqual([refusedAck(4, 'smart_card.uid_invalid', 'Card UID must be hexadecimal (0-9, A-F)'), accepted(5, 'arrival')]);
    expect(decision.writes[0]).toEqual(ledgerWrite([acknowledged([5], [[1, 3], [5, 5]])]));
    expect(decision.reads.cards).toEqual([alicesCard]);
  });

  it('refuses a device time no scan can have (a clock at 1970) when no age places it', () => {
    const decision = send(world, { scans: [sent(4, alicesCard, '1970-01-01T00:00:00.000Z')] });
    expect(decision.acks).toEqual([
      refusedAck(
        4,
        'scan.device_time_impossible',
        "device_time 1970-01-01T00:00:00.000Z cannot be a scan's time (before 2000-01-01T00:00:00.000Z) and the reader sent no age to place it: check the door box's clock",
      ),
    ]);
    expect(decision.writes).toEqual([ledgerWrite([])]);
    expect(decision.reads).toEqual({ seenSequences: [], cards: [], days: [] });
  });

  it('refuses a sequence that goes backwards, and one that is not a whole number from 1', () => {
    const gap = { streams: { ...world.streams, [scanLedgerStream(readerId)]: [acknowledged([1, 2, 3], [[1, 3]]), acknowledged([7], [[1, 3], [7, 7]])] }, accounts: world.accounts };
    const decision = send(gap, { scans: [sent(5, alicesCard), sent(0, alicesCard), sent(1.5, alicesCard)] });
    expect(decision.acks).toEqual([
      refusedAck(5, 'scan.sequence_backwards', "Sequence 5 goes backwards: this reader's scans were acknowledged up to 7"),
      refusedAck(0, 'scan.sequence_invalid', 'Sequence 0 is not a whole number from 1 up'),
      refusedAck(1.5, 'scan.sequence_invalid', 'Sequence 1.5 is not a whole number from 1 up'),
    ]);
    expect(decision.writes).toEqual([ledgerWrite([])]);
  });

  it('answers a retry of a scan acknowledged before again, and counts nothing', () => {
    const stored = { 3: { cardUid: alicesCard, deviceTime: receivedAt } };
    const decision = send({ ...world, stored }, { scans: [sent(3, '04-a1-b2-c3', '2026-11-23T08:00:00+01:00'), sent(2, alicesCard)] });
    expect(decision.acks).toEqual([alreadyAccepted(3), alreadyAccepted(2)]);
    expect(decision.writes).toEqual([ledgerWrite([])]);
    expect(decision.reads).toEqual({ seenSequences: [3, 2], cards: [], days: [] });
  });

  it('refuses a sequence acknowledged with another scan (an outbox rolled back), by card or by time', () => {
    const stored = { 2: { cardUid: bobsCard, deviceTime: receivedAt }, 3: { cardUid: alicesCard, deviceTime: minutes(-5) } };
    const decision = send({ ...world, stored }, { scans: [sent(2, alicesCard), sent(3, alicesCard)] });
    const reused = (sequence: number, was: AcknowledgedScan) =>
      refusedAck(
        sequence,
        'scan.sequence_reused',
        `Sequence ${sequence} was already used by another scan (card ${was.cardUid} at ${was.deviceTime}) in this outbox: the outbox was rolled back (a restored disk image?); start a new outbox id and send this scan again`,
      );
    expect(decision.acks).toEqual([reused(2, stored[2]), reused(3, stored[3])]);
    expect(decision.writes).toEqual([ledgerWrite([])]);
  });

  it('judges a sequence sent twice in one batch: new the first time, a retry the second', () => {
    const decision = send(world, { scans: [sent(4, alicesCard), sent(4, alicesCard)] });
    expect(decision.acks).toEqual([accepted(4, 'arrival'), alreadyAccepted(4)]);
    expect(decision.reads.seenSequences).toEqual([4]);
  });
});

describe("a reader's outboxes", () => {
  const adoptA = outboxChanged('outbox-a', null, []);
  const world: World = { streams: { ...doorReader, ...cards, [scanLedgerStream(readerId)]: [adoptA, acknowledged([1, 2, 3], [[1, 3]])] }, accounts: { alice: berlin } };

  it('adopts the first outbox it hears of, keeping the numbering', () => {
    const decision = send({ ...world, streams: { ...world.streams, ...ledgerUpTo3 } }, { scans: [sent(3, alicesCard), sent(4, alicesCard)], outboxId: 'outbox-a' });
    expect(decision.acks).toEqual([alreadyAccepted(3), accepted(4, 'arrival')]);
    expect(decision.writes[0]).toEqual(ledgerWrite([adoptA, acknowledged([4], [[1, 4]])]));
  });

  it('numbers a replaced outbox from 1 again: its scan 1 is new, and the change is appended first', () => {
    const decision = send(world, { scans: [sent(1, alicesCard)], outboxId: 'outbox-b' });
    expect(decision.acks).toEqual([accepted(1, 'arrival')]);
    expect(decision.writes[0]).toEqual(ledgerWrite([outboxChanged('outbox-b', 'outbox-a', [[1, 3]]), acknowledged([1], [[1, 1]])]));
  });

  it('refuses every scan of a retired outbox, reads nothing more and appends nothing', () => {
    const replaced = { ...world, streams: { ...world.streams, [scanLedgerStream(readerId)]: [adoptA, outboxChanged('outbox-b', 'outbox-a', [])] } };
    const decision = send(replaced, { scans: [sent(4, alicesCard), sent(1, 'garbage')], outboxId: 'outbox-a' });
    const message = 'Outbox outbox-a was replaced by a newer one on this reader; its scans are not counted again';
    expect(decision.acks).toEqual([refusedAck(4, 'scan.outbox_retired', message), refusedAck(1, 'scan.outbox_retired', message)]);
    expect(decision.writes).toEqual([ledgerWrite([])]);
    expect(decision.reads).toEqual({ seenSequences: [], cards: [], days: [] });
  });
});

describe('an enrollment reader', () => {
  const desk = (sequence: number, cardUid: string) => sent(sequence, cardUid);
  const deskScan = (id: number, scan: SentScan) => scanOf(id, scan, { reader: enrollmentReaderId, door: 'Lobby' });
  const registerModeEnded = (accountId: string, reason: 'card_registered' | 'card_already_registered', cardUid: string): ReaderEvent => ({
    type: 'RegisterModeEnded',
    data: { readerId: enrollmentReaderId, accountId, reason, cardUid, endedAt: receivedAt },
  });
  const registeredAtDesk = (scan: ReaderScan, accountId: string, cardId: string): SmartCardEvent => ({
    type: 'SmartCardRegistered',
    data: { cardId, cardUid: scan.cardUid, accountId, via: 'enrollment', registeredBy: 'admin', scan: recorded(scan), registeredAt: receivedAt },
  });
  const ignored = (scan: ReaderScan, reason: 'not_armed' | 'card_taken' | 'card_already_registered', armedForAccountId: string | null, ownerAccountId: string | null): ScanLedgerEvent => ({
    type: 'EnrollmentScanIgnored',
    data: { readerId: enrollmentReaderId, scan: recorded(scan), reason, armedForAccountId, ownerAccountId },
  });
  const deskLedger = (events: ScanLedgerEvent[]) => ledgerWrite(events, enrollmentReaderId);
  const readerWrite = (events: ReaderEvent[]) => ({ streamId: readerStream(enrollmentReaderId), events });
  const armed: World = { streams: { ...enrollmentReader(armedFor('carol')), ...cards }, accounts: { alice: berlin, bob: 'UTC', carol: 'UTC' } };

  it("in register mode, makes a free card the armed account's and ends register mode", () => {
    const scan = desk(1, unknownCard);
    const decision = send(armed, { scans: [scan], reader: enrollmentReaderId });
    expect(decision.acks).toEqual([accepted(1, 'card_registered')]);
    expect(decision.writes).toEqual([
      deskLedger([acknowledged([1], [[1, 1]], enrollmentReaderId)]),
      readerWrite([registerModeEnded('carol', 'card_registered', unknownCard)]),
      { streamId: smartCardStream(unknownCard), events: [registeredAtDesk(deskScan(1, scan), 'carol', 'id-2')] },
    ]);
    expect(decision.reads.days).toEqual([]);
  });

  it("refuses a card that is already someone else's and stays armed for the right one", () => {
    const scan = desk(1, alicesCard);
    const decision = send(armed, { scans: [scan], reader: enrollmentReaderId });
    expect(decision.acks).toEqual([accepted(1, 'card_taken')]);
    expect(decision.writes).toEqual([deskLedger([ignored(deskScan(1, scan), 'card_taken', 'carol', 'alice'), acknowledged([1], [[1, 1]], enrollmentReaderId)]), readerWrite([])]);
  });

  it('ends register mode when the armed account presents its own card again, registering nothing', () => {
    const own = { ...armed, streams: { ...armed.streams, [smartCardStream(unknownCard)]: [cardRegistered(unknownCard, 'carol')] } };
    const scan = desk(1, unknownCard);
    const decision = send(own, { scans: [scan], reader: enrollmentReaderId });
    expect(decision.acks).toEqual([accepted(1, 'card_already_registered')]);
    expect(decision.writes).toEqual([
      deskLedger([ignored(deskScan(1, scan), 'card_already_registered', 'carol', 'carol'), acknowledged([1], [[1, 1]], enrollmentReaderId)]),
      readerWrite([registerModeEnded('carol', 'card_already_registered', unknownCard)]),
    ]);
  });

  it("frees the card of a deleted account in the same append, then registers it to the armed account", () => {
    const orphaned = { ...armed, accounts: { carol: 'UTC' } };
    const scan = desk(1, alicesCard);
    const decision = send(orphaned, { scans: [scan], reader: enrollmentReaderId });
    expect(decision.acks).toEqual([accepted(1, 'card_registered')]);
    expect(decision.writes[2]).toEqual({
      streamId: smartCardStream(alicesCard),
      events: [
        { type: 'SmartCardRemoved', data: { cardId: 'card-of-alice', cardUid: alicesCard, accountId: 'alice', removedBy: enrollmentReaderId, removedAt: receivedAt } },
        registeredAtDesk(deskScan(1, scan), 'carol', 'id-2'),
      ],
    });
  });

  it('appends the removal of a freed card even when nothing registers it (the reader is not armed): the card is unknown now', () => {
    const idle: World = { streams: { ...enrollmentReader(), ...cards }, accounts: {} };
    const scan = desk(1, alicesCard);
    const decision = send(idle, { scans: [scan], reader: enrollmentReaderId });
    expect(decision.acks).toEqual([accepted(1, 'unknown_card')]);
    expect(decision.writes).toEqual([
      deskLedger([unknownCardScanned(deskScan(1, scan), enrollmentReaderId), acknowledged([1], [[1, 1]], enrollmentReaderId)]),
      readerWrite([]),
      { streamId: smartCardStream(alicesCard), events: [{ type: 'SmartCardRemoved', data: { cardId: 'card-of-alice', cardUid: alicesCard, accountId: 'alice', removedBy: enrollmentReaderId, removedAt: receivedAt } }] },
    ]);
  });

  it('without register mode keeps a known card in the ledger as not armed', () => {
    const scan = desk(1, alicesCard);
    const decision = send({ ...armed, streams: { ...enrollmentReader(), ...cards } }, { scans: [scan], reader: enrollmentReaderId });
    expect(decision.acks).toEqual([accepted(1, 'not_armed')]);
    expect(decision.writes).toEqual([deskLedger([ignored(deskScan(1, scan), 'not_armed', null, 'alice'), acknowledged([1], [[1, 1]], enrollmentReaderId)]), readerWrite([])]);
  });

  it('decides a batch on the reader and cards the previous scans left: the first card registers, the next finds register mode ended', () => {
    const first = desk(1, unknownCard);
    const again = desk(2, unknownCard);
    const other = desk(3, 'CAFEBABE');
    const decision = send(armed, { scans: [other, again, first], reader: enrollmentReaderId });
    expect(decision.acks).toEqual([accepted(3, 'unknown_card'), accepted(2, 'not_armed'), accepted(1, 'card_registered')]);
    expect(decision.writes).toEqual([
      deskLedger([
        ignored(deskScan(2, again), 'not_armed', null, 'carol'),
        unknownCardScanned(deskScan(3, other), enrollmentReaderId),
        acknowledged([1, 2, 3], [[1, 3]], enrollmentReaderId),
      ]),
      readerWrite([registerModeEnded('carol', 'card_registered', unknownCard)]),
      { streamId: smartCardStream(unknownCard), events: [registeredAtDesk(deskScan(1, first), 'carol', 'id-4')] },
    ]);
  });

  it("appends a new outbox before what the scans left in the ledger", () => {
    const scan = desk(1, alicesCard);
    const decision = send({ ...armed, streams: { ...enrollmentReader(), ...cards } }, { scans: [scan], reader: enrollmentReaderId, outboxId: 'outbox-a' });
    expect(decision.writes[0]).toEqual(
      deskLedger([
        { type: 'ScanOutboxChanged', data: { readerId: enrollmentReaderId, outboxId: 'outbox-a', previousOutboxId: null, previous: [], at: receivedAt } },
        ignored(deskScan(1, scan), 'not_armed', null, 'alice'),
        acknowledged([1], [[1, 1]], enrollmentReaderId),
      ]),
    );
  });

  it('lists its own stream even when a request appends nothing (a retried batch)', () => {
    const retried = { ...armed, streams: { ...armed.streams, [scanLedgerStream(enrollmentReaderId)]: [acknowledged([1], [[1, 1]], enrollmentReaderId)] } };
    const decision = send(retried, { scans: [desk(1, unknownCard)], reader: enrollmentReaderId });
    expect(decision.acks).toEqual([alreadyAccepted(1)]);
    expect(decision.writes).toEqual([deskLedger([]), readerWrite([])]);
  });
});

describe('what the caller must read', () => {
  it('refuses to decide on a card or a day it was not given, rather than take it for an empty stream', () => {
    const reader = fold(readerDecider, [readerRegistered('door')]);
    if (reader.status !== 'active') throw new Error('active');
    const request: ReaderScanRequest = { reader, ledger: scanLedgerDecider.initialState(), outboxId: null, sentAt: receivedAt, receivedAt, scans: [sent(1, alicesCard)], rules };
    const newId = () => 'id';
    expect(() => decideReaderScans({ ...request, cards: new Map(), newId })).toThrow(`card ${alicesCard} was not read`);
    const alicesCardState: SmartCardState = { status: 'registered', cardId: 'c', cardUid: alicesCard, accountId: 'alice' };
    expect(() => decideReaderScans({ ...request, cards: new Map([[alicesCard, alicesCardState]]), timeZones: new Map([['alice', berlin]]), newId })).toThrow(
      `day stream ${attendanceDayStream('alice', '2026-11-22')} was not read`,
    );
  });
});
