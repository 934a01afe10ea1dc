import { describe, expect, it } from 'vitest';
import { givenFor } from '../../test/given';
import { fold } from '../shared';
import {
  ACKNOWLEDGED_RANGES_KEPT,
  addSequence,
  classifySequences,
  scanLedgerDecider,
  scanLedgerStream,
  type ScanLedgerEvent,
  type SequenceRange,
} from './scan-ledger';
import type { ReaderScan } from './recorded-scan';

const readerId = 'reader-front';
const at = '2026-11-23T07:00:00.000Z';
const ledger = givenFor(scanLedgerDecider);

const acknowledge = (...sequences: number[]) => ({ type: 'AcknowledgeScans' as const, data: { readerId, sequences, at } });
const acknowledged = (sequences: number[], ranges: SequenceRange[]): ScanLedgerEvent => ({ type: 'ScansAcknowledged', data: { readerId, sequences, acknowledged: ranges, at } });
const upTo3 = acknowledged([1, 2, 3], [[1, 3]]);

describe('scan sequences', () => {
  it('acknowledges new sequences and carries the whole acknowledged set', () => ledger([]).when(acknowledge(1, 2, 3)).then([upTo3]));

  it('appends nothing for a retried batch', () => ledger([upTo3]).when(acknowledge(1, 2, 3)).then([]));

  it('acknowledges only the new part of a batch that is partly a retry', () => ledger([upTo3]).when(acknowledge(3, 4)).then([acknowledged([4], [[1, 4]])]));

  it('takes a shuffled batch in the order the reader numbered it', () => ledger([upTo3]).when(acknowledge(6, 4, 5)).then([acknowledged([4, 5, 6], [[1, 6]])]));

  it('keeps a gap the reader skipped, and refuses a sequence that goes back into it', () => {
    ledger([upTo3]).when(acknowledge(7)).then([acknowledged([7], [[1, 3], [7, 7]])]);
    ledger([upTo3, acknowledged([7], [[1, 3], [7, 7]])]).when(acknowledge(5)).thenThrows('scan.sequence_backwards', 'sequence');
  });

  it('refuses sequences that are not whole numbers from 1', () => {
    ledger([]).when(acknowledge(0)).thenThrows('scan.sequence_invalid', 'sequence');
    ledger([]).when(acknowledge(1.5)).thenThrows('scan.sequence_invalid', 'sequence');
  });

  it('classifies a batch scan by scan, in the batch order, a number repeated in the batch being seen the second time', () => {
    const ranges: SequenceRange[] = [[1, 3], [7, 7]];
    expect(classifySequences(ranges, [8, 2, 5, 8, 0, 9])).toEqual(['new', 'seen', 'backwards', 'seen', 'invalid', 'new']);
  });

  it('merges neighbouring ranges', () => {
    expect(addSequence([[1, 3], [5, 7]], 4)).toEqual([[1, 7]]);
    expect(addSequence([[1, 3]], 5)).toEqual([[1, 3], [5, 5]]);
    expect(addSequence([[5, 7]], 1)).toEqual([[1, 1], [5, 7]]);
  });

  it(`keeps at most ${ACKNOWLEDGED_RANGES_KEPT} ranges; a sequence in a forgotten one is refused, never counted again`, () => {
    let ranges: SequenceRange[] = [];
    for (let range = 0; range <= ACKNOWLEDGED_RANGES_KEPT; range++) ranges = addSequence(ranges, range * 2 + 1);
    expect(ranges).toHaveLength(ACKNOWLEDGED_RANGES_KEPT);
    expect(classifySequences(ranges, [1, 3])).toEqual(['backwards', 'seen']);
  });

  it('is the last acknowledgement: folding only the tail of the stream gives the same state', () => {
    const events = [upTo3, acknowledged([4, 5], [[1, 5]]), acknowledged([9], [[1, 5], [9, 9]])];
    expect(fold(scanLedgerDecider, events.slice(-1))).toEqual(fold(scanLedgerDecider, events));
  });
});

describe('resetting a reader\'s numbering', () => {
  const reset = (reason: string) => ({ type: 'ResetScanSequence' as const, data: { readerId, reason, resetBy: 'admin', at } });

  it('records what was acknowledged, and the reader may start from 1 again', () => {
    ledger([upTo3]).when(reset(' Queue wiped after a disk failure ')).then([{ type: 'ScanSequenceReset', data: { readerId, previous: [[1, 3]], reason: 'Queue wiped after a disk failure', resetBy: 'admin', at } }]);
    const wiped: ScanLedgerEvent = { type: 'ScanSequenceReset', data: { readerId, previous: [[1, 3]], reason: 'wiped', resetBy: 'admin', at } };
    ledger([upTo3, wiped]).when(acknowledge(1)).then([acknowledged([1], [[1, 1]])]);
  });

  it('needs a reason', () => ledger([upTo3]).when(reset('  ')).thenThrows('scan.reset_reason_required', 'reason'));
});

describe("a reader's outboxes", () => {
  const note = (outboxId: string) => ({ type: 'NoteScanOutbox' as const, data: { readerId, outboxId, at } });
  const changed = (outboxId: string, previousOutboxId: string | null, previous: SequenceRange[]): ScanLedgerEvent => ({ type: 'ScanOutboxChanged', data: { readerId, outboxId, previousOutboxId, previous, at } });
  const adoptA = changed('outbox-a', null, []);

  it('adopts the first outbox it hears of, keeping what was acknowledged', () => {
    ledger([upTo3]).when(note('outbox-a')).then([adoptA]);
    ledger([upTo3, adoptA]).when(acknowledge(3, 4)).then([acknowledged([4], [[1, 4]])]);
  });

  it('notes nothing while the same outbox sends', () => ledger([adoptA, upTo3]).when(note('outbox-a')).then([]));

  it("starts a replaced outbox's numbering afresh: its scan 1 is new, not a retry of the old one's", () => {
    ledger([adoptA, upTo3]).when(note('outbox-b')).then([changed('outbox-b', 'outbox-a', [[1, 3]])]);
    ledger([adoptA, upTo3, changed('outbox-b', 'outbox-a', [[1, 3]])]).when(acknowledge(1)).then([acknowledged([1], [[1, 1]])]);
  });

  it('refuses the scans of a replaced outbox, so they are never counted a second time', () =>
    ledger([adoptA, upTo3, changed('outbox-b', 'outbox-a', [[1, 3]])]).when(note('outbox-a')).thenThrows('scan.outbox_retired', 'outbox_id'));
});

describe('unknown cards', () => {
  it('keeps the scan with its measured clock', () => {
    const scan: ReaderScan = { scanId: 's1', readerId, sequence: 4, door: 'Front', cardUid: 'DEADBEEF', deviceTime: '2026-11-23T06:00:00.000Z', sentAt: '2026-11-23T06:00:00.000Z', receivedAt: at };
    ledger([upTo3])
      .when({ type: 'RecordUnknownCard', data: { scan, clockSkewLimitSeconds: 120 } })
      .then([{ type: 'UnknownCardScanned', data: { readerId, scan: { ...scan, skewMs: 3_600_000, at, flags: ['clock_skew'] } } }]);
  });

  it('does not change the acknowledged set', () => {
    const unknown: ScanLedgerEvent = { type: 'UnknownCardScanned', data: { readerId, scan: { scanId: 's1', readerId, sequence: 4, door: 'Front', cardUid: 'DEADBEEF', deviceTime: at, sentAt: at, receivedAt: at, skewMs: 0, at, flags: [] } } };
    expect(fold(scanLedgerDecider, [upTo3, unknown])).toEqual({ acknowledged: [[1, 3]], outboxId: null, retiredOutboxIds: [] });
  });

  it('lives in a stream of its own per reader', () => expect(scanLedgerStream(readerId)).toBe('scan-ledger-reader-front'));
});
