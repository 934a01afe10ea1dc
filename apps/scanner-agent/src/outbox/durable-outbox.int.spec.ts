import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from '@rollcall/sqlite-driver';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DurableOutbox } from './durable-outbox';

const at = (iso: string) => new Date(iso);

describe('DurableOutbox (real SQLite file)', () => {
  let dir: string;
  let file: string;
  const open: DurableOutbox[] = [];
  const openOutbox = () => {
    const outbox = DurableOutbox.open(file, { now: () => at('2026-11-22T09:00:00.000Z') });
    open.push(outbox);
    return outbox;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rollcall-outbox-'));
    file = join(dir, 'outbox.db');
  });

  afterEach(() => {
    open.splice(0).forEach((outbox) => outbox.close());
    rmSync(dir, { recursive: true, force: true });
  });

  it('assigns sequences that keep increasing across close and reopen', () => {
    const first = openOutbox();
    const a = first.enqueue({ cardUid: '04A1B2C3', deviceTime: at('2026-11-22T08:00:00Z') });
    const b = first.enqueue({ cardUid: '04A1B2C4', deviceTime: at('2026-11-22T08:00:01Z') });
    const outboxId = first.outboxId;
    first.close();

    const second = openOutbox();
    const c = second.enqueue({ cardUid: '04A1B2C5', deviceTime: at('2026-11-22T08:00:02Z') });

    expect([a.sequence, b.sequence, c.sequence]).toEqual([1, 2, 3]);
    expect(second.outboxId).toBe(outboxId);
    expect(second.peekBatch(10).map((scan) => [scan.sequence, scan.cardUid, scan.deviceTime.toISOString()])).toEqual([
      [1, '04A1B2C3', '2026-11-22T08:00:00.000Z'],
      [2, '04A1B2C4', '2026-11-22T08:00:01.000Z'],
      [3, '04A1B2C5', '2026-11-22T08:00:02.000Z'],
    ]);
  });

  it('has committed the scan when enqueue returns (another connection sees it)', () => {
    const outbox = openOutbox();
    outbox.enqueue({ cardUid: '04a1b2c3', deviceTime: at('2026-11-22T08:00:00Z') });

    const observer = new Database(file, { readonly: true });
    try {
      expect(observer.prepare('SELECT sequence, card_uid FROM outbox_scans').all()).toEqual([{ sequence: 1, card_uid: '04A1B2C3' }]);
      expect(observer.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      observer.close();
    }
  });

  it('deletes acknowledged rows and keeps the unacknowledged ones, oldest first', () => {
    const outbox = openOutbox();
    for (let i = 0; i < 6; i += 1) outbox.enqueue({ cardUid: `0A0B0C0${i}`, deviceTime: at('2026-11-22T08:00:00Z') });

    expect(outbox.acknowledge(2)).toBe(2);
    expect(outbox.acknowledge([4, 6])).toBe(2);
    // a retried acknowledgement deletes nothing more and is not an error
    expect(outbox.acknowledge([4])).toBe(0);
    expect(outbox.acknowledge(1)).toBe(0);

    expect(outbox.peekBatch(10).map((scan) => scan.sequence)).toEqual([3, 5]);
    expect(outbox.peekBatch(1).map((scan) => scan.sequence)).toEqual([3]);
    expect(outbox.depth()).toBe(2);
    expect(outbox.oldestUnsent()).toMatchObject({ sequence: 3, cardUid: '0A0B0C02', enqueuedAt: at('2026-11-22T09:00:00.000Z') });

    outbox.close();
    const reopened = openOutbox();
    expect(reopened.peekBatch(10).map((scan) => scan.sequence)).toEqual([3, 5]);
  });

  it('never reuses a sequence, even after every row was acknowledged and the file reopened', () => {
    const outbox = openOutbox();
    outbox.enqueue({ cardUid: '04A1B2C3', deviceTime: at('2026-11-22T08:00:00Z') });
    outbox.enqueue({ cardUid: '04A1B2C3', deviceTime: at('2026-11-22T08:00:05Z') });
    outbox.acknowledge(2);
    expect(outbox.depth()).toBe(0);
    expect(outbox.oldestUnsent()).toBeUndefined();
    outbox.close();

    const reopened = openOutbox();
    expect(reopened.enqueue({ cardUid: '04A1B2C3', deviceTime: at('2026-11-22T08:01:00Z') }).sequence).toBe(3);
    reopened.acknowledge([3]);
    expect(reopened.enqueue({ cardUid: '04A1B2C3', deviceTime: at('2026-11-22T08:02:00Z') }).sequence).toBe(4);
    expect(reopened.lastSequence()).toBe(4);
  });

  it('gives a new file a new outbox id, so a wiped data directory cannot collide with old sequences', () => {
    const first = openOutbox();
    const firstId = first.outboxId;
    first.close();
    rmSync(dir, { recursive: true, force: true });
    dir = mkdtempSync(join(tmpdir(), 'rollcall-outbox-'));
    file = join(dir, 'outbox.db');

    const fresh = openOutbox();
    expect(fresh.outboxId).not.toBe(firstId);
    expect(fresh.enqueue({ cardUid: '04A1B2C3', deviceTime: at('2026-11-22T08:00:00Z') }).sequence).toBe(1);
  });

  it('refuses to acknowledge sequences it never handed out, and deletes nothing then', () => {
    const outbox = openOutbox();
    outbox.enqueue({ cardUid: '04A1B2C3', deviceTime: at('2026-11-22T08:00:00Z') });
    expect(() => outbox.acknowledge(2)).toThrow(RangeError);
    expect(() => outbox.acknowledge([1, 7])).toThrow(RangeError);
    expect(() => outbox.acknowledge(-1)).toThrow(RangeError);
    expect(() => outbox.acknowledge(1.5)).toThrow(RangeError);
    expect(outbox.depth()).toBe(1);
  });

  it('refuses invalid scans without using up a sequence', () => {
    const outbox = openOutbox();
    expect(() => outbox.enqueue({ cardUid: 'not-hex', deviceTime: at('2026-11-22T08:00:00Z') })).toThrow(/cardUid/);
    expect(() => outbox.enqueue({ cardUid: '04A1B2C3', deviceTime: new Date('nonsense') })).toThrow(/deviceTime/);
    expect(() => outbox.peekBatch(0)).toThrow(RangeError);
    expect(outbox.enqueue({ cardUid: '04A1B2C3', deviceTime: at('2026-11-22T08:00:00Z') }).sequence).toBe(1);
  });

  it('refuses a file written by a newer agent rather than guess at its tables', () => {
    openOutbox().close();
    const raw = new Database(file);
    raw.pragma('user_version = 99');
    raw.close();
    expect(() => DurableOutbox.open(file)).toThrow(/schema version 99/);
  });
  it('upgrades a version 2 file in place, keeping its queued scans (they go without an age), and queues new ones with their boot time', () => {
    const old = new Database(file);
    old.exec(`
      CREATE TABLE outbox_meta (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), outbox_id TEXT NOT NULL, last_sequence INTEGER NOT NULL CHECK (last_sequence >= 0)) STRICT;
      CREATE TABLE outbox_scans (sequence INTEGER PRIMARY KEY, card_uid TEXT NOT NULL, device_time TEXT NOT NULL, enqueued_at TEXT NOT NULL) STRICT;
      CREATE TABLE dead_letters (sequence INTEGER PRIMARY KEY, card_uid TEXT NOT NULL, device_time TEXT NOT NULL, enqueued_at TEXT NOT NULL, refused_at TEXT NOT NULL, code TEXT NOT NULL, message TEXT NOT NULL) STRICT;
      CREATE TABLE agent_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
      INSERT INTO outbox_meta VALUES (1, 'old-outbox-id-1', 1);
      INSERT INTO outbox_scans VALUES (1, '04A1B2C3', '2026-11-22T08:00:00.000Z', '2026-11-22T08:00:00.000Z');
      PRAGMA user_version = 2;
    `);
    old.close();
    const outbox = DurableOutbox.open(file, { now: () => at('2026-11-22T09:00:00.000Z'), monotonic: () => ({ bootId: 'boot-a', bootMs: 5000 }) });
    open.push(outbox);
    expect(outbox.enqueue({ cardUid: '04A1B2C4', deviceTime: at('2026-11-22T09:00:00.000Z') })).toMatchObject({ sequence: 2, bootId: 'boot-a', bootMs: 5000 });
    expect(outbox.peekBatch(10).map(({ sequence, bootId, bootMs }) => [sequence, bootId, bootMs])).toEqual([[1, null, null], [2, 'boot-a', 5000]]);
  });

  it('a rolled-back file starts a new outbox id and renumbers its queue from 1, in order, nothing dropped', () => {
    const outbox = openOutbox();
    for (const uid of ['04A1B2C3', '04A1B2C4', '04A1B2C5']) outbox.enqueue({ cardUid: uid, deviceTime: at('2026-11-22T09:00:00.000Z') });
    outbox.acknowledge(1);
    const before = outbox.outboxId;
    const started = outbox.startNewOutbox();
    expect(started).toMatchObject({ previousOutboxId: before, renumbered: 2 });
    expect(outbox.outboxId).toBe(started.outboxId);
    expect(outbox.outboxId).not.toBe(before);
    expect(outbox.peekBatch(10).map(({ sequence, cardUid }) => [sequence, cardUid])).toEqual([[1, '04A1B2C4'], [2, '04A1B2C5']]);
    expect(outbox.lastSequence()).toBe(2);
    expect(outbox.enqueue({ cardUid: '04A1B2C6', deviceTime: at('2026-11-22T09:00:00.000Z') }).sequence).toBe(3);
  });
});
