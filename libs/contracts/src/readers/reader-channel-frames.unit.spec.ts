import { describe, expect, it } from 'vitest';
import {
  READER_FRAME_MAX_BYTES,
  READER_SCAN_BATCH_MAX,
  READER_SCAN_FRAME_MAX_BYTES,
  ZReaderErrorFrame,
  ZReaderMessage,
  ZReaderScanBatch,
  ZReaderScanBatchAckFrame,
  ZReaderScanBatchFrame,
} from './reader-protocol-schemas';

const t = '2026-11-23T07:00:00.000Z';
const scan = (sequence: number) => ({ card_uid: '04A1B2C3', sequence, device_time: t });

/**
 * The longest batch the rules take, every value as long as it may be and written by JSON.stringify:
 * a card_uid of 64 characters that JSON escapes to six bytes each (U+0001), the largest sequences,
 * date-times of 40 characters, the largest age, and every optional field.
 */
function maximalFrame() {
  const longestTime = '2026-11-23T08:00:00.12345678901234+01:00';
  return {
    type: 'scan_batch' as const,
    request_id: 'r'.repeat(64),
    consistency: 'none' as const,
    sent_at: longestTime,
    outbox_id: 'o'.repeat(64),
    scans: Array.from({ length: READER_SCAN_BATCH_MAX }, (_, index) => ({
      card_uid: '\u0001'.repeat(64),
      sequence: Number.MAX_SAFE_INTEGER - index,
      device_time: longestTime,
      age_ms: 10 * 366 * 86_400_000,
    })),
  };
}

describe('scans over the reader channel (docs/readers.md)', () => {
  it('takes a batch frame with the payload and rules of POST scans/batch, and a request id', () => {
    const frame = { type: 'scan_batch', request_id: 'r-1', sent_at: t, outbox_id: 'outbox-0001', scans: [scan(1), scan(2)] };
    expect(ZReaderMessage.parse(frame)).toEqual(frame);
    expect(ZReaderScanBatchFrame.safeParse({ ...frame, scans: [scan(1), scan(1)] }).error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['scans.1.sequence', 'Sequence 1 appears more than once in this batch'],
    ]);
    expect(ZReaderScanBatchFrame.safeParse({ ...frame, request_id: '' }).error?.issues[0].path).toEqual(['request_id']);
    expect(ZReaderScanBatchFrame.safeParse({ ...frame, request_id: 'has space' }).error?.issues[0].path).toEqual(['request_id']);
    expect(ZReaderScanBatchFrame.safeParse({ ...frame, consistency: 'wait' }).error?.issues[0].path).toEqual(['consistency']);
    const { type: _type, request_id: _id, ...body } = frame;
    expect(ZReaderScanBatch.parse(body)).toEqual(body);
    expect(ZReaderScanBatchFrame.safeParse({ ...frame, scans: Array.from({ length: READER_SCAN_BATCH_MAX + 1 }, (_, index) => scan(index + 1)) }).error?.issues[0].message).toBe(
      `A batch carries at most ${READER_SCAN_BATCH_MAX} scans; send the rest in the next one`,
    );
  });

  it('sizes the scan frame limit to the longest batch the rules allow, and no more than needed', () => {
    const frame = maximalFrame();
    expect(ZReaderScanBatchFrame.safeParse(frame).success).toBe(true);
    const bytes = Buffer.byteLength(JSON.stringify(frame));
    expect(bytes).toBeGreaterThan(500_000);
    expect(bytes).toBeLessThanOrEqual(READER_SCAN_FRAME_MAX_BYTES);
    // one more scan's worth would not fit: the limit is the batch's, rounded up to 512 KiB
    expect(READER_SCAN_FRAME_MAX_BYTES - bytes).toBeLessThan(bytes / READER_SCAN_BATCH_MAX * 40);
    expect(READER_FRAME_MAX_BYTES).toBeLessThan(READER_SCAN_FRAME_MAX_BYTES);
  });

  it('answers with the HTTP answer, the request id and the consistency headers', () => {
    const answer = { type: 'scan_batch_ack', request_id: 'r-1', position: '42', consistency: 'stale', received_at: t, skew_ms: 3, clock_skewed: false, acks: [{ sequence: 1, status: 'already_accepted' }] };
    expect(ZReaderScanBatchAckFrame.parse(answer)).toEqual(answer);
    expect(ZReaderErrorFrame.parse({ type: 'error', request_id: 'r-1', status: 400, error: { code: 'request.invalid', message: 'Invalid input', fields: { sent_at: ['x'] } } }).status).toBe(400);
    // what a server from before scans over the channel answers to a frame it does not know
    expect(ZReaderErrorFrame.parse({ type: 'error', error: { code: 'request.invalid', message: 'Not a reader message (health or command_ack)' } }).request_id).toBeUndefined();
  });
});
