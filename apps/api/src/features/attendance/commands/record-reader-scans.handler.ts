import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { READER_SCAN_BATCH_MAX, type TReaderScan, type TScanBatchAck } from '@rollcall/contracts';
import {
  attendanceDayDecider,
  attendanceDayStreamsToRead,
  decideReaderScans,
  measureScanTime,
  readerDecider,
  readerScanReads,
  readerStream,
  scanLedgerDecider,
  scanLedgerStream,
  smartCardDecider,
  smartCardStream,
  type AcknowledgedScan,
  type AttendanceDayEvent,
  type AttendanceDayState,
  type ReaderScanRequest,
  type ScanLedgerEvent,
  type ScanLedgerState,
  type SentScan,
  type SmartCardEvent,
  type SmartCardState,
} from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { retryingOnConflict } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import { newAggregateId } from '../../../platform/runtime/ids';
import { foldStream, latestPosition, toStreamWrites, type LoadedStream } from '../../../platform/commands/multi-stream';
import { StreamStateCache } from '../../../platform/commands/stream-state-cache';
import { StreamTailCache } from '../../../platform/commands/stream-tail-cache';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore, StoredEvent } from '../../../platform/event-store/event-store.port';
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

/**
 * A reader's request of scans, one or a batch (docs/adr/0013, 'A batch, step by step'). The decision
 * is the domain's `decideReaderScans`; this handler reads what it needs (the reader and its ledger,
 * then what `readerScanReads` and `attendanceDayStreamsToRead` name), and appends what it decided in
 * one atomic append with the acknowledgement last. A concurrent change to any stream read decides
 * the whole request again.
 */
@CommandHandler(RecordReaderScansCommand)
export class RecordReaderScansHandler implements ICommandHandler<RecordReaderScansCommand, CommandOutcome<TScanBatchAck>> {
  /** each reader's ledger as last read, by reader id */
  private readonly ledgers = new Map<string, LoadedStream<ScanLedgerState>>();
  /** readers and cards as last read: a scan reads only what was appended since */
  private readonly streams = new StreamTailCache({ streams: STREAMS_CACHED, events: EVENTS_CACHED });
  /** attendance days as last folded (a state each, not their events): a scan reads and folds only what was appended since */
  private readonly days = new StreamStateCache(attendanceDayDecider, STREAMS_CACHED);

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
    const reader = foldStream(readerDecider, readerStream(readerId), await this.streams.read(this.store, readerStream(readerId)));
    if (reader.state.status !== 'active' || reader.state.tokenHash !== tokenHash) throw readerTokenInvalid();
    const ledger = await this.loadLedger(readerId);
    const request: ReaderScanRequest = { reader: reader.state, ledger: ledger.state, outboxId, sentAt, receivedAt, scans: scans.map(sentScan), rules: this.settings.rules };
    const read = new Map<string, LoadedStream<unknown>>([
      [reader.streamId, reader],
      [ledger.streamId, ledger],
    ]);

    const { seenSequences, cardUids } = readerScanReads(request);
    const acknowledgedScans = seenSequences.length ? await this.acknowledgedScans(readerId, seenSequences) : new Map<number, AcknowledgedScan>();
    const cards = new Map<string, SmartCardState>();
    // one read of the store for a batch's cards (one statement on SQLite, one query on PostgreSQL)
    const cardStreams = await this.streams.readMany(this.store, cardUids.map(smartCardStream));
    for (const [index, uid] of cardUids.entries()) {
      const card = foldStream(smartCardDecider, smartCardStream(uid), cardStreams[index]);
      cards.set(uid, card.state);
      read.set(card.streamId, card);
    }
    const orphanedCardRemovals = new Map<string, SmartCardEvent[]>();
    let timeZones = new Map<string, string>();
    if (request.reader.role === 'enrollment') {
      // a deleted account's card is free: its old registration goes in the same append
      for (const [uid, state] of cards) {
        const freed = await freeOrphanedCard(this.db, state, readerId, receivedAt);
        if (freed.events.length) orphanedCardRemovals.set(uid, freed.events);
      }
    } else {
      // the zone that draws each holder's days, looked up once per request; a deleted account has none
      const holders = [...cards.values()].flatMap((state) => (state.status === 'registered' ? [state.accountId] : []));
      if (holders.length) timeZones = await attendanceTimeZones(this.db, holders);
    }
    // each day folded from the version this process last saw: only the events since are read and folded
    const dayStates = new Map<string, AttendanceDayState>();
    const days = new Map<string, LoadedStream<AttendanceDayState>>();
    for (const day of await this.days.readMany(this.store, attendanceDayStreamsToRead({ ...request, cards, timeZones }))) {
      dayStates.set(day.streamId, day.state);
      days.set(day.streamId, day);
      read.set(day.streamId, day);
    }

    const decision = decideReaderScans({ ...request, acknowledgedScans, cards, orphanedCardRemovals, timeZones, dayStates, newId: newAggregateId });
    const writes = decision.writes.map(({ streamId, events }) => {
      const stream = read.get(streamId);
      if (!stream) throw new Error(`the scans decided into stream ${streamId}, which was not read`);
      return { stream, events };
    });
    const streamWrites = toStreamWrites(writes, context, this.clock.now().toISOString());
    if (!streamWrites.length) return { acks: decision.acks, position: latestPosition(writes.map((write) => write.stream.lastPosition)) };
    const results = await this.store.appendToStreams(streamWrites);
    // the days' own appends fold into their cached states (the i-th result is the i-th write's)
    for (const [index, { streamId }] of streamWrites.entries()) {
      const day = days.get(streamId);
      const written = writes.find((write) => write.stream.streamId === streamId);
      if (day && written) this.days.appended(day, written.events as AttendanceDayEvent[], results[index]);
    }
    return { acks: decision.acks, position: latestPosition(results.map((result) => result.position)) };
  }

  /**
   * Of these already acknowledged sequences, the scan each was acknowledged with in the reader's
   * current numbering, as stored: found through the `ScansAcknowledged` that took the sequence and
   * the scan event appended with it (the domain tells a retry from a sequence given to another scan).
   * Only requests carrying seen sequences pay for it (a retry after a lost answer, a rolled-back
   * outbox). A scan whose stored record cannot be found is left out: the retry it claims to be.
   */
  private async acknowledgedScans(readerId: string, sequences: readonly number[]): Promise<Map<number, AcknowledgedScan>> {
    const wanted = new Set(sequences);
    const ackPositions = new Map<number, StoredEvent['position']>();
    const stored = new Map<number, AcknowledgedScan>();
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
    return stored;
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
/** reader and card streams kept (a few events each), and day states kept: a day's scans of 20,000 card holders */
const STREAMS_CACHED = 50_000;
/**
 * reader and card events kept in a generation (at most twice this in all, about 0.75 kB each as kept).
 * Day streams, which grow by an event per scan, duplicates included, are kept as folded states instead:
 * kept as events they let a day of scans live in the heap (issue 23: memory-rss grew by about 2 kB of
 * heap per scan, 1.5 GB RSS at peak) and were folded again on every request
 */
const EVENTS_CACHED = 50_000;

/** the contracts' scan in the domain's words */
const sentScan = ({ sequence, card_uid, device_time, age_ms }: TReaderScan): SentScan => ({ sequence, cardUid: card_uid, deviceTime: device_time, ...(age_ms === undefined ? {} : { ageMs: age_ms }) });
