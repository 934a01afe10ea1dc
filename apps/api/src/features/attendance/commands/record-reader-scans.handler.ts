import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { READER_SCAN_BATCH_MAX, type TReaderScan, type TScanAck, type TScanBatchAck, type TScanFlag, type TScanOutcome } from '@rollcall/contracts';
import {
  attendanceDayDecider,
  attendanceDaysOfScan,
  attendanceDayStream,
  classifySequences,
  decideAttendanceDay,
  decideEnrollmentScan,
  DomainError,
  evolveAttendanceDay,
  fold,
  measureScanTime,
  normaliseCardUid,
  readerDecider,
  readerStream,
  recordScan,
  scanLedgerDecider,
  scanLedgerStream,
  scanTimeProblem,
  smartCardDecider,
  smartCardStream,
  type AttendanceDayEvent,
  type AttendanceDayState,
  type ReaderEvent,
  type ReaderScan,
  type ReaderState,
  type ScanLedgerCommand,
  type ScanLedgerEvent,
  type ScanLedgerState,
  type SmartCardEvent,
  type SmartCardState,
} from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { retryingOnConflict } from '../../../platform/commands/aggregate-repository';
import type { Clock } from '../../../platform/runtime/clock';
import { newAggregateId } from '../../../platform/runtime/ids';
import { appendDecision, decideInTurn, foldStream, loadStream, type LoadedStream, type PlannedWrite } from '../../../platform/commands/multi-stream';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import { START, type EventStore, type StoredEvent } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { readerTokenInvalid } from '../../readers/reader-authenticator';
import { ATTENDANCE_SETTINGS, type AttendanceSettings } from '../attendance-rules.provider';
import { attendanceTimeZones } from '../attendance-time-zone';
import { freeOrphanedCard } from '../orphaned-card';

export class RecordReaderScansCommand {
  constructor(
    readonly readerId: string,
    /** the hash of the token the request came with: checked against the reader's stream */
    readonly tokenHash: string,
    readonly sentAt: string,
    readonly scans: TReaderScan[],
    readonly context: RequestContext,
    /** the agent's outbox (docs/adr/0013, 'Outboxes'); null from a client that names none */
    readonly outboxId: string | null = null,
  ) {}
}

type Accepted = Extract<TScanAck, { status: 'accepted' }>;

interface NewScan {
  index: number;
  scan: ReaderScan;
}

/**
 * A reader's request of scans, one or a batch (docs/adr/0013, 'A batch, step by step'): the ledger
 * judges each sequence (a retry is answered again and counts nothing; backwards and malformed UIDs
 * are refused scan by scan), each new scan becomes exactly one event in the stream of what it became
 * (an account's day, the reader's ledger, a card), and everything lands in one atomic append with the
 * acknowledgement last. A concurrent change to any stream read decides the whole request again.
 */
@CommandHandler(RecordReaderScansCommand)
export class RecordReaderScansHandler implements ICommandHandler<RecordReaderScansCommand, CommandOutcome<TScanBatchAck>> {
  /** each reader's ledger as last read, by reader id */
  private readonly ledgers = new Map<string, LoadedStream<ScanLedgerState>>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ATTENDANCE_SETTINGS) private readonly settings: AttendanceSettings,
  ) {}

  async execute(command: RecordReaderScansCommand): Promise<CommandOutcome<TScanBatchAck>> {
    const receivedAt = this.clock.now().toISOString();
    const { rules } = this.settings;
    const measured = measureScanTime({ deviceTime: command.sentAt, sentAt: command.sentAt, receivedAt }, rules.clockSkewLimitSeconds);
    const { acks, position } = await retryingOnConflict(() => this.decide(command, receivedAt));
    return { value: { received_at: receivedAt, skew_ms: Math.round(measured.skewMs), clock_skewed: measured.clockSkewed, acks }, position };
  }

  private async decide({ readerId, tokenHash, sentAt, scans, context, outboxId }: RecordReaderScansCommand, receivedAt: string) {
    const { rules } = this.settings;
    const reader = await loadStream(this.store, readerDecider, readerStream(readerId));
    if (reader.state.status !== 'active' || reader.state.tokenHash !== tokenHash) throw readerTokenInvalid();
    const readerState = reader.state;
    const ledger = await this.loadLedger(readerId);
    // a new outbox numbers from 1 again: its scans are judged against its own set, not the old one's
    let outboxEvents: ScanLedgerEvent[];
    try {
      outboxEvents = outboxId ? scanLedgerDecider.decide({ type: 'NoteScanOutbox', data: { readerId, outboxId, at: receivedAt } }, ledger.state) : [];
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'scan.outbox_retired') throw error;
      return { acks: scans.map((scan) => refused(scan.sequence, error.code, error.message)), position: ledger.lastPosition ?? START };
    }
    const ledgerState = outboxEvents.reduce(scanLedgerDecider.evolve, ledger.state);
    const acks: TScanAck[] = new Array(scans.length);
    const verdicts = classifySequences(ledgerState.acknowledged, scans.map((scan) => scan.sequence));
    const highest = ledgerState.acknowledged.at(-1)?.[1] ?? 0;

    const fresh: NewScan[] = [];
    // a sequence seen before is a retry only when it is the same scan (a rolled-back outbox hands
    // its numbers out again to new scans): compared with what was stored
    const reused = verdicts.includes('seen') ? await this.reusedSequences(readerId, scans.filter((_, index) => verdicts[index] === 'seen')) : new Map<number, string>();
    scans.forEach((scan, index) => {
      const { sequence } = scan;
      const verdict = verdicts[index];
      const reuse = verdict === 'seen' ? reused.get(sequence) : undefined;
      if (reuse) acks[index] = refused(sequence, 'scan.sequence_reused', reuse);
      else if (verdict === 'seen') acks[index] = { sequence, status: 'already_accepted' };
      else if (verdict === 'backwards') acks[index] = refused(sequence, 'scan.sequence_backwards', `Sequence ${sequence} goes backwards: this reader's scans were acknowledged up to ${highest}`);
      else if (verdict === 'invalid') acks[index] = refused(sequence, 'scan.sequence_invalid', `Sequence ${sequence} is not a whole number from 1 up`);
      else {
        try {
          const cardUid = normaliseCardUid(scan.card_uid);
          const readerScan: ReaderScan = { scanId: newAggregateId(), readerId, sequence, door: readerState.door, cardUid, deviceTime: scan.device_time, sentAt, receivedAt, ...(scan.age_ms === undefined ? {} : { ageMs: scan.age_ms }) };
          const timeProblem = scanTimeProblem(readerScan, rules.clockSkewLimitSeconds);
          if (timeProblem) acks[index] = refused(sequence, 'scan.device_time_impossible', timeProblem);
          else fresh.push({ index, scan: readerScan });
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          acks[index] = refused(sequence, error.code, error.message);
        }
      }
    });
    fresh.sort((a, b) => a.scan.sequence - b.scan.sequence);

    const cards = new Map<string, LoadedStream<SmartCardState>>();
    for (const uid of new Set(fresh.map(({ scan }) => scan.cardUid))) cards.set(uid, await loadStream(this.store, smartCardDecider, smartCardStream(uid)));

    const ledgerCommands: ScanLedgerCommand[] = [];
    const writes: PlannedWrite[] = [];
    const accept = (index: number, outcome: TScanOutcome, flags: TScanFlag[]) => {
      acks[index] = { sequence: scans[index].sequence, status: 'accepted', outcome, flags } satisfies Accepted;
    };

    if (readerState.role === 'enrollment') {
      const readerEvents: ReaderEvent[] = [];
      const cardEvents = new Map<string, SmartCardEvent[]>();
      const ledgerEvents: ScanLedgerEvent[] = [];
      let currentReader: ReaderState = readerState;
      const cardStates = new Map<string, SmartCardState>();
      for (const [uid, loaded] of cards) {
        // a deleted account's card is free: its old registration goes in the same append
        const freed = await freeOrphanedCard(this.db, loaded.state, readerId, receivedAt);
        cardStates.set(uid, freed.state);
        if (freed.events.length) cardEvents.set(uid, freed.events);
      }
      for (const { index, scan } of fresh) {
        const owner = cardStates.get(scan.cardUid) as SmartCardState;
        const decision = decideEnrollmentScan({ reader: currentReader, card: owner, scan, cardId: newAggregateId(), clockSkewLimitSeconds: rules.clockSkewLimitSeconds });
        readerEvents.push(...decision.reader);
        currentReader = decision.reader.reduce(readerDecider.evolve, currentReader);
        if (decision.card.length) {
          cardEvents.set(scan.cardUid, [...(cardEvents.get(scan.cardUid) ?? []), ...decision.card]);
          cardStates.set(scan.cardUid, decision.card.reduce(smartCardDecider.evolve, owner));
        }
        ledgerEvents.push(...decision.ledger);
        accept(index, decision.outcome, recordScan(scan, rules.clockSkewLimitSeconds).flags);
      }
      writes.push({ stream: reader, events: readerEvents });
      for (const [uid, events] of cardEvents) writes.push({ stream: cards.get(uid) as LoadedStream<unknown>, events });
      const acknowledged = decideInTurn(scanLedgerDecider, ledgerState, [ackCommand(readerId, fresh, receivedAt)]);
      writes.unshift({ stream: ledger, events: [...outboxEvents, ...ledgerEvents, ...acknowledged.events] });
      return { acks, position: await appendDecision(this.store, this.clock, context, writes) };
    }

    // a door reader: known cards toggle their account's days, unknown ones go to the ledger
    const byAccount = new Map<string, { timeZone: string; scans: NewScan[] }>();
    // the zone that draws each holder's days, looked up once per request; a deleted account has none
    const holders = [...cards.values()].flatMap(({ state }) => (state.status === 'registered' ? [state.accountId] : []));
    const zones = holders.length ? await attendanceTimeZones(this.db, holders) : new Map<string, string>();
    for (const entry of fresh) {
      const card = (cards.get(entry.scan.cardUid) as LoadedStream<SmartCardState>).state;
      const timeZone = card.status === 'registered' ? zones.get(card.accountId) : undefined;
      if (card.status !== 'registered' || !timeZone) {
        ledgerCommands.push({ type: 'RecordUnknownCard', data: { scan: entry.scan, clockSkewLimitSeconds: rules.clockSkewLimitSeconds } });
        accept(entry.index, 'unknown_card', recordScan(entry.scan, rules.clockSkewLimitSeconds).flags);
        continue;
      }
      const group = byAccount.get(card.accountId) ?? { timeZone, scans: [] };
      group.scans.push(entry);
      byAccount.set(card.accountId, group);
    }

    for (const [accountId, { timeZone, scans: accountScans }] of byAccount) {
      const days = [...new Set(accountScans.flatMap(({ scan }) => attendanceDaysOfScan(scan, timeZone, rules)))].sort();
      const loaded = new Map<string, LoadedStream<AttendanceDayState>>();
      const stored = [];
      for (const day of days) {
        const events = await this.store.readStream(attendanceDayStream(accountId, day));
        loaded.set(day, foldStream(attendanceDayDecider, attendanceDayStream(accountId, day), events));
        stored.push(...events);
      }
      let state = fold(attendanceDayDecider, stored.map((event) => ({ type: event.type, data: event.data }) as AttendanceDayEvent));
      const decided = new Map<string, AttendanceDayEvent[]>();
      // each scan on the state the previous ones left (decideDoorScansInOrder, scan by scan for its outcome)
      for (const { index, scan } of accountScans) {
        const events = decideAttendanceDay({ type: 'RecordDoorScan', data: { accountId, timeZone, scan, rules } }, state);
        state = events.reduce(evolveAttendanceDay, state);
        for (const event of events) decided.set(event.data.day, [...(decided.get(event.data.day) ?? []), event]);
        const [outcome, flags] = outcomeOf(events);
        accept(index, outcome, flags);
      }
      for (const [day, events] of decided) {
        const stream = loaded.get(day);
        if (!stream) throw new Error(`a scan decided into day ${day}, which was not loaded`);
        writes.push({ stream, events });
      }
    }
    ledgerCommands.push(ackCommand(readerId, fresh, receivedAt));
    writes.unshift({ stream: ledger, events: [...outboxEvents, ...decideInTurn(scanLedgerDecider, ledgerState, ledgerCommands).events] });
    return { acks, position: await appendDecision(this.store, this.clock, context, writes) };
  }

  /**
   * Of these already acknowledged scans, the ones whose sequence was given to ANOTHER scan (another
   * card or device time) in the reader's current numbering, with why: found through the
   * `ScansAcknowledged` that took the sequence and the scan event appended with it. Only requests
   * carrying seen sequences pay for it (a retry after a lost answer, a rolled-back outbox). A scan
   * whose stored record cannot be found is taken as the retry it claims to be, as before.
   */
  private async reusedSequences(readerId: string, seen: TReaderScan[]): Promise<Map<number, string>> {
    const wanted = new Map(seen.map((scan) => [scan.sequence, scan]));
    const ackPositions = new Map<number, StoredEvent['position']>();
    const stored = new Map<number, { cardUid: string; deviceTime: string }>();
    const scanOf = (event: StoredEvent) => (event.data as { scan?: { readerId?: string; sequence?: number; cardUid?: string; deviceTime?: string } } | null)?.scan;
    for (const event of await this.store.readStream(scanLedgerStream(readerId))) {
      // a new outbox or a reset starts a new numbering: earlier acknowledgements are another namespace
      // (the first outbox id heard adopts the set acknowledged so far: the same numbering)
      const adopted = event.type === 'ScanOutboxChanged' && (event.data as { previousOutboxId: string | null }).previousOutboxId === null;
      if ((event.type === 'ScanOutboxChanged' && !adopted) || event.type === 'ScanSequenceReset') {
        ackPositions.clear();
        stored.clear();
      }
      // unknown cards are kept in the ledger itself
      const inLedger = scanOf(event);
      if (inLedger?.readerId === readerId && typeof inLedger.sequence === 'number' && wanted.has(inLedger.sequence)) {
        stored.set(inLedger.sequence, { cardUid: String(inLedger.cardUid), deviceTime: String(inLedger.deviceTime) });
      }
      if (event.type !== 'ScansAcknowledged') continue;
      for (const sequence of (event.data as { sequences: number[] }).sequences) if (wanted.has(sequence)) ackPositions.set(sequence, event.position);
    }
    for (const sequence of stored.keys()) ackPositions.delete(sequence);
    const byPosition = new Map<string, StoredEvent['position']>();
    for (const position of ackPositions.values()) byPosition.set(JSON.stringify(position), position);
    for (const position of byPosition.values()) {
      // the scan events of an append follow its acknowledgement (a batch is at most 1,000 scans,
      // each one event, an open-day flag or a freed card beside some)
      for (const event of await this.store.readAll(position, 3 * READER_SCAN_BATCH_MAX)) {
        const scan = scanOf(event);
        if (scan?.readerId !== readerId || typeof scan.sequence !== 'number' || !wanted.has(scan.sequence) || stored.has(scan.sequence)) continue;
        if (ackPositions.get(scan.sequence) !== position) continue;
        stored.set(scan.sequence, { cardUid: String(scan.cardUid), deviceTime: String(scan.deviceTime) });
      }
    }
    const reused = new Map<number, string>();
    for (const [sequence, was] of stored) {
      const now = wanted.get(sequence) as TReaderScan;
      let cardUid: string;
      try {
        cardUid = normaliseCardUid(now.card_uid);
      } catch {
        cardUid = now.card_uid;
      }
      if (cardUid === was.cardUid && Date.parse(now.device_time) === Date.parse(was.deviceTime)) continue;
      reused.set(
        sequence,
        `Sequence ${sequence} was already used by another scan (card ${was.cardUid} at ${was.deviceTime}) in this outbox: the outbox was rolled back (a restored disk image?); start a new outbox id and send this scan again`,
      );
    }
    return reused;
  }

  /**
   * The reader's ledger, folded from the version this process last saw (ADR 0013): every
   * `ScansAcknowledged` carries the whole acknowledged set, so a ledger that grows by one event per
   * request is never read from its start again. Only the tail is read, so another process's appends
   * are always seen; a conflict at append time decides the request again.
   */
  private async loadLedger(readerId: string): Promise<LoadedStream<ScanLedgerState>> {
    const streamId = scanLedgerStream(readerId);
    const cached = this.ledgers.get(readerId);
    const from = cached && typeof cached.expectedVersion === 'number' ? cached.expectedVersion + 1 : 0;
    const tail = await this.store.readStream(streamId, from);
    let loaded: LoadedStream<ScanLedgerState>;
    if (!cached || from === 0) loaded = foldStream(scanLedgerDecider, streamId, tail);
    else if (!tail.length) loaded = cached;
    else {
      const last = tail[tail.length - 1];
      const state = tail.reduce((current, event) => scanLedgerDecider.evolve(current, { type: event.type, data: event.data } as ScanLedgerEvent), cached.state);
      loaded = { streamId, state, expectedVersion: last.streamVersion, lastPosition: last.position };
    }
    if (this.ledgers.size >= LEDGERS_CACHED && !this.ledgers.has(readerId)) this.ledgers.clear();
    this.ledgers.set(readerId, loaded);
    return loaded;
  }

}

/** readers whose ledgers are kept folded; past it the cache starts again */
const LEDGERS_CACHED = 10_000;

const refused = (sequence: number, code: string, message: string): TScanAck => ({ sequence, status: 'refused', error: { code, message } });

const ackCommand = (readerId: string, fresh: NewScan[], at: string): ScanLedgerCommand => ({ type: 'AcknowledgeScans', data: { readerId, sequences: fresh.map(({ scan }) => scan.sequence), at } });

/** what a door scan became: the event carrying the scan (an open-day flag may come before it) */
function outcomeOf(events: AttendanceDayEvent[]): [TScanOutcome, TScanFlag[]] {
  for (const event of events) {
    if (event.type === 'ArrivalRecorded') return ['arrival', event.data.scan.flags];
    if (event.type === 'DepartureRecorded') return ['departure', event.data.scan.flags];
    if (event.type === 'UncountedScanRecorded') return [event.data.reason, event.data.scan.flags];
  }
  throw new Error('a door scan decided into no scan event');
}
