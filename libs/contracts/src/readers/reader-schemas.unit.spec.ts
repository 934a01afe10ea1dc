import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ZRegisterReaderInput, ZResetScanSequenceInput } from './reader-admin-schemas';
import {
  READER_SCAN_BATCH_MAX,
  ZCardUid,
  ZReaderCommand,
  ZReaderHealthReport,
  ZReaderMessage,
  ZReaderScanBatch,
  ZReaderScanPost,
  ZScanAck,
} from './reader-protocol-schemas';

/** field path -> messages, as the API answers them */
function fieldsOf(result: z.ZodSafeParseResult<unknown>): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of result.error?.issues ?? []) (fields[issue.path.join('.')] ??= []).push(issue.message);
  return fields;
}

const t = '2026-11-23T07:00:00.000Z';
const scan = (sequence: number) => ({ card_uid: '04A1B2C3', sequence, device_time: t });

describe('reader scans', () => {
  it('takes one scan with the time it was sent', () => {
    expect(ZReaderScanPost.parse({ ...scan(1), sent_at: '2026-11-23T08:00:05+01:00' })).toEqual({ ...scan(1), sent_at: '2026-11-23T08:00:05+01:00' });
    expect(fieldsOf(ZReaderScanPost.safeParse(scan(1)))).toEqual({ sent_at: [expect.stringContaining('sent_at must be an ISO-8601 date-time')] });
  });

  it('wants sequences as whole numbers from 1', () => {
    expect(Object.keys(fieldsOf(ZReaderScanPost.safeParse({ ...scan(0), sent_at: t })))).toEqual(['sequence']);
    expect(Object.keys(fieldsOf(ZReaderScanPost.safeParse({ ...scan(1.5), sent_at: t })))).toEqual(['sequence']);
    expect(Object.keys(fieldsOf(ZReaderScanPost.safeParse({ ...scan(1), sequence: '1', sent_at: t })))).toEqual(['sequence']);
  });

  it('wants device times with a zone', () => expect(Object.keys(fieldsOf(ZReaderScanPost.safeParse({ ...scan(1), device_time: '2026-11-23 08:00:00', sent_at: t })))).toEqual(['device_time']));

  it('leaves the UID rule to the server, scan by scan, so one misread card does not refuse its batch', () =>
    expect(ZReaderScanBatch.safeParse({ sent_at: t, scans: [scan(1), { ...scan(2), card_uid: 'not hex' }] }).success).toBe(true));

  it(`takes batches of 1 to ${READER_SCAN_BATCH_MAX} scans, each sequence once`, () => {
    expect(ZReaderScanBatch.safeParse({ sent_at: t, scans: Array.from({ length: READER_SCAN_BATCH_MAX }, (_, index) => scan(index + 1)) }).success).toBe(true);
    expect(fieldsOf(ZReaderScanBatch.safeParse({ sent_at: t, scans: Array.from({ length: READER_SCAN_BATCH_MAX + 1 }, (_, index) => scan(index + 1)) }))).toEqual({
      scans: [`A batch carries at most ${READER_SCAN_BATCH_MAX} scans; send the rest in the next one`],
    });
    expect(fieldsOf(ZReaderScanBatch.safeParse({ sent_at: t, scans: [] }))).toEqual({ scans: ['A batch carries at least one scan'] });
    expect(fieldsOf(ZReaderScanBatch.safeParse({ sent_at: t, scans: [scan(1), scan(2), scan(1)] }))).toEqual({ 'scans.2.sequence': ['Sequence 1 appears more than once in this batch'] });
  });

  it('ignores fields a newer agent may send', () => expect(ZReaderScanPost.parse({ ...scan(1), sent_at: t, rssi: -40 })).not.toHaveProperty('rssi'));
});

describe('card UIDs typed by people', () => {
  it('normalise to upper-case hex without separators', () => expect(ZCardUid.parse('04:a1:b2:c3')).toBe('04A1B2C3'));

  it.each([
    ['', 'Card UID is required'],
    ['04A1B2G3', 'Card UID must be hexadecimal (0-9, A-F)'],
    ['04A1B2C', 'Card UID must be whole bytes (an even number of hex digits)'],
    ['04A1B2', 'Card UID must be 4 to 16 bytes (8 to 32 hex digits)'],
  ])('refuse %j with one message naming the rule', (raw, message) => expect(fieldsOf(ZCardUid.safeParse(raw))).toEqual({ '': [message] }));
});

describe('acknowledgements and WebSocket messages', () => {
  it('acknowledge each scan as accepted (with what it became), already accepted, or refused', () => {
    expect(ZScanAck.safeParse({ sequence: 3, status: 'accepted', outcome: 'arrival', flags: ['clock_skew'] }).success).toBe(true);
    expect(ZScanAck.safeParse({ sequence: 3, status: 'already_accepted' }).success).toBe(true);
    expect(ZScanAck.safeParse({ sequence: 3, status: 'refused', error: { code: 'scan.sequence_backwards', message: 'goes backwards' } }).success).toBe(true);
    expect(ZScanAck.safeParse({ sequence: 3, status: 'accepted', outcome: 'teleported', flags: [] }).success).toBe(false);
  });

  it('carry register mode and configuration to the reader, with bounds on the configuration', () => {
    const commandId = '0b9a3c64-1f2e-4c1d-9a51-7d1f00000010';
    expect(ZReaderCommand.safeParse({ type: 'register_mode.on', command_id: commandId, expires_at: t }).success).toBe(true);
    expect(ZReaderCommand.safeParse({ type: 'register_mode.off', command_id: commandId, reason: 'cancelled' }).success).toBe(true);
    expect(ZReaderCommand.safeParse({ type: 'configure', command_id: commandId, configuration: { heartbeat_seconds: 30, batch_max: 500, retry_max_seconds: 60 } }).success).toBe(true);
    expect(ZReaderCommand.safeParse({ type: 'configure', command_id: commandId, configuration: { heartbeat_seconds: 1, batch_max: 500, retry_max_seconds: 60 } }).success).toBe(false);
  });

  it('take the health report and command acknowledgements from the reader', () => {
    const health = { sent_at: t, queue_depth: 12, oldest_queued_at: t, last_sequence: 4711, device_connected: true, agent_version: '1.0.0' };
    expect(ZReaderHealthReport.parse(health)).toEqual(health);
    expect(ZReaderMessage.safeParse({ type: 'health', ...health }).success).toBe(true);
    expect(fieldsOf(ZReaderHealthReport.safeParse({ ...health, queue_depth: -1 }))).toEqual({ queue_depth: ['queue_depth cannot be negative'] });
    expect(ZReaderMessage.safeParse({ type: 'command_ack', command_id: '0b9a3c64-1f2e-4c1d-9a51-7d1f00000010', ok: true }).success).toBe(true);
  });
});

describe('reader administration', () => {
  it('registers a reader with a name, a door and a role', () => {
    expect(ZRegisterReaderInput.parse({ name: ' Front desk ', door: 'Lobby', role: 'enrollment' })).toEqual({ name: 'Front desk', door: 'Lobby', role: 'enrollment' });
    expect(fieldsOf(ZRegisterReaderInput.safeParse({ name: '', door: 'Lobby', role: 'turnstile' }))).toEqual({ name: ['Name is required'], role: ['Role must be one of door, enrollment'] });
  });

  it('needs a reason to reset a reader\'s numbering', () => expect(fieldsOf(ZResetScanSequenceInput.safeParse({ reason: ' ' }))).toEqual({ reason: ['Say why the reader may number its scans from 1 again'] }));
});
