import { DomainError, type Decider, type DomainEvent } from '../shared';
import { recordScan, type ReaderScan, type RecordedScan } from './recorded-scan';

/**
 * A reader's scan ledger (stream `scan-ledger-{readerId}`, docs/adr/0013): which of the reader's
 * sequence numbers the server has acknowledged, so that a retried scan never counts twice and a
 * sequence going backwards is refused. It also keeps the scans that belong to no account: unknown
 * cards and enrollment scans that registered nothing.
 *
 * The acknowledged set is kept as ranges, and every `ScansAcknowledged` carries the whole set after
 * it, so the API folds the stream on from the version it already knows (its cache) instead of from
 * the start. Every append to the ledger ends with one of them. The set belongs to the agent's current
 * outbox (`ScanOutboxChanged`): a replaced outbox numbers from 1 again.
 */

/** [from, to], both included; ranges are sorted, disjoint and never adjacent */
export type SequenceRange = [number, number];

/**
 * A well-behaved reader numbers its scans 1, 2, 3, ... and its set is one range. Gaps only come from
 * a reader that skipped numbers; past this many ranges the lowest are forgotten, and a sequence in
 * them is then refused as going backwards: a visible error, never a second count.
 */
export const ACKNOWLEDGED_RANGES_KEPT = 64;

/** 'new': record it; 'seen': a retry, answer it again and record nothing; 'backwards': refuse it */
export type SequenceVerdict = 'new' | 'seen' | 'backwards' | 'invalid';

export const isValidSequence = (sequence: number) => Number.isSafeInteger(sequence) && sequence >= 1;

function verdictOf(ranges: readonly SequenceRange[], sequence: number): SequenceVerdict {
  if (!isValidSequence(sequence)) return 'invalid';
  if (ranges.some(([from, to]) => sequence >= from && sequence <= to)) return 'seen';
  const highest = ranges.length ? ranges[ranges.length - 1][1] : 0;
  // below the highest acknowledged and never seen: the reader went back (a reset queue, a bug)
  return sequence > highest ? 'new' : 'backwards';
}

/** The set with one more sequence, merged with its neighbours and bounded. */
export function addSequence(ranges: readonly SequenceRange[], sequence: number): SequenceRange[] {
  const next: SequenceRange[] = [];
  let added: SequenceRange = [sequence, sequence];
  for (const range of ranges) {
    if (range[1] + 1 < added[0]) next.push(range);
    else if (added[1] + 1 < range[0]) {
      next.push(added);
      added = range;
    } else added = [Math.min(range[0], added[0]), Math.max(range[1], added[1])];
  }
  next.push(added);
  return next.slice(-ACKNOWLEDGED_RANGES_KEPT);
}

/**
 * The verdict of each sequence of a batch, in the batch's order. The batch is judged in ascending
 * order, as the reader numbered it, so a batch that arrives shuffled is still all new; a number
 * repeated within the batch is 'seen' the second time.
 */
export function classifySequences(ranges: readonly SequenceRange[], sequences: readonly number[]): SequenceVerdict[] {
  const verdicts: SequenceVerdict[] = new Array(sequences.length);
  let current = [...ranges];
  const order = sequences.map((_, index) => index).sort((a, b) => sequences[a] - sequences[b]);
  for (const index of order) {
    const verdict = verdictOf(current, sequences[index]);
    verdicts[index] = verdict;
    if (verdict === 'new') current = addSequence(current, sequences[index]);
  }
  return verdicts;
}

export type ScansAcknowledged = DomainEvent<'ScansAcknowledged', { readerId: string; sequences: number[]; acknowledged: SequenceRange[]; at: string }>;
/** an administrator let a reader start its numbering again (its queue was wiped); `previous` is what it had */
export type ScanSequenceReset = DomainEvent<'ScanSequenceReset', { readerId: string; previous: SequenceRange[]; reason: string; resetBy: string; at: string }>;
/** a card no account holds; the console shows it live and an administrator can assign it */
export type UnknownCardScanned = DomainEvent<'UnknownCardScanned', { readerId: string; scan: RecordedScan }>;
/**
 * A card at an enrollment reader that registered nothing: 'not_armed' (a known card, no register
 * mode), 'card_taken' (another account holds it), 'card_already_registered' (the armed account does).
 */
export type EnrollmentScanIgnored = DomainEvent<
  'EnrollmentScanIgnored',
  { readerId: string; scan: RecordedScan; reason: 'not_armed' | 'card_taken' | 'card_already_registered'; armedForAccountId: string | null; ownerAccountId: string | null }
>;
/**
 * The reader's agent numbers its scans in an outbox with a random id (docs/adr/0013, 'Outboxes'). The
 * first id a ledger hears is adopted and its numbering kept (`previousOutboxId` null); a different id
 * means the agent's queue was replaced (a wiped disk, a new box): its numbering starts again, so the
 * acknowledged set starts empty and the old id is retired. `previous` keeps the set it replaced.
 */
export type ScanOutboxChanged = DomainEvent<'ScanOutboxChanged', { readerId: string; outboxId: string; previousOutboxId: string | null; previous: SequenceRange[]; at: string }>;
export type ScanLedgerEvent = ScansAcknowledged | ScanSequenceReset | UnknownCardScanned | EnrollmentScanIgnored | ScanOutboxChanged;
export const SCAN_LEDGER_EVENT_TYPES: ScanLedgerEvent['type'][] = ['ScansAcknowledged', 'ScanSequenceReset', 'UnknownCardScanned', 'EnrollmentScanIgnored', 'ScanOutboxChanged'];

/** The sequences of one request; seen ones are skipped, so a retried batch appends nothing. */
export type AcknowledgeScans = { type: 'AcknowledgeScans'; data: { readerId: string; sequences: number[]; at: string } };
export type ResetScanSequence = { type: 'ResetScanSequence'; data: { readerId: string; reason: string; resetBy: string; at: string } };
export type RecordUnknownCard = { type: 'RecordUnknownCard'; data: { scan: ReaderScan; clockSkewLimitSeconds: number } };
/** a request's outbox id, before its scans are judged */
export type NoteScanOutbox = { type: 'NoteScanOutbox'; data: { readerId: string; outboxId: string; at: string } };
export type ScanLedgerCommand = AcknowledgeScans | ResetScanSequence | RecordUnknownCard | NoteScanOutbox;

export interface ScanLedgerState {
  acknowledged: SequenceRange[];
  /** the outbox whose numbering the acknowledged set is (null until an agent names one) */
  outboxId: string | null;
  /** outboxes replaced since, newest last: their scans are refused, never counted a second time */
  retiredOutboxIds: string[];
}

/** how many replaced outboxes a ledger remembers */
export const RETIRED_OUTBOXES_KEPT = 32;

export const outboxRetired = (outboxId: string) =>
  new DomainError('scan.outbox_retired', `Outbox ${outboxId} was replaced by a newer one on this reader; its scans are not counted again`, 'outbox_id');

export const SCAN_RESET_REASON_MAX = 500;

export const scanLedgerDecider: Decider<ScanLedgerCommand, ScanLedgerEvent, ScanLedgerState> = {
  initialState: () => ({ acknowledged: [], outboxId: null, retiredOutboxIds: [] }),
  evolve(state, event) {
    switch (event.type) {
      case 'ScansAcknowledged':
        return { ...state, acknowledged: event.data.acknowledged };
      case 'ScanSequenceReset':
        return { ...state, acknowledged: [] };
      case 'ScanOutboxChanged': {
        const replaced = event.data.previousOutboxId;
        if (replaced === null) return { ...state, outboxId: event.data.outboxId };
        return { acknowledged: [], outboxId: event.data.outboxId, retiredOutboxIds: [...state.retiredOutboxIds, replaced].slice(-RETIRED_OUTBOXES_KEPT) };
      }
      case 'UnknownCardScanned':
      case 'EnrollmentScanIgnored':
        return state;
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'AcknowledgeScans': {
        const { readerId, sequences, at } = command.data;
        const verdicts = classifySequences(state.acknowledged, sequences);
        // the API answers a batch scan by scan and passes only what classifySequences calls new or seen
        const invalid = sequences.find((_, index) => verdicts[index] === 'invalid');
        if (invalid !== undefined) throw new DomainError('scan.sequence_invalid', `Sequence ${invalid} is not a whole number from 1 up`, 'sequence');
        const backwards = sequences.find((_, index) => verdicts[index] === 'backwards');
        if (backwards !== undefined) {
          const highest = state.acknowledged.length ? state.acknowledged[state.acknowledged.length - 1][1] : 0;
          throw new DomainError('scan.sequence_backwards', `Sequence ${backwards} goes backwards: this reader's scans were acknowledged up to ${highest}`, 'sequence');
        }
        const fresh = sequences.filter((_, index) => verdicts[index] === 'new').sort((a, b) => a - b);
        if (!fresh.length) return [];
        const acknowledged = fresh.reduce<SequenceRange[]>(addSequence, state.acknowledged);
        return [{ type: 'ScansAcknowledged', data: { readerId, sequences: fresh, acknowledged, at } }];
      }
      case 'ResetScanSequence': {
        const reason = command.data.reason.trim();
        if (!reason) throw new DomainError('scan.reset_reason_required', 'Say why the reader may number its scans from 1 again', 'reason');
        if ([...reason].length > SCAN_RESET_REASON_MAX) throw new DomainError('scan.reset_reason_required', `The reason may be at most ${SCAN_RESET_REASON_MAX} characters`, 'reason');
        return [{ type: 'ScanSequenceReset', data: { readerId: command.data.readerId, previous: state.acknowledged, reason, resetBy: command.data.resetBy, at: command.data.at } }];
      }
      case 'NoteScanOutbox': {
        const { readerId, outboxId, at } = command.data;
        if (outboxId === state.outboxId) return [];
        if (state.retiredOutboxIds.includes(outboxId)) throw outboxRetired(outboxId);
        return [{ type: 'ScanOutboxChanged', data: { readerId, outboxId, previousOutboxId: state.outboxId, previous: state.outboxId === null ? [] : state.acknowledged, at } }];
      }
      case 'RecordUnknownCard': {
        const { scan, clockSkewLimitSeconds } = command.data;
        return [{ type: 'UnknownCardScanned', data: { readerId: scan.readerId, scan: recordScan(scan, clockSkewLimitSeconds) } }];
      }
      default: {
        const unhandled: never = command;
        throw new Error(`unhandled command ${(unhandled as { type: string }).type}`);
      }
    }
  },
};

export const scanLedgerStream = (readerId: string) => `scan-ledger-${readerId}`;
