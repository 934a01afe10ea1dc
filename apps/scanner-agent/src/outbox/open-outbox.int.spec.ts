import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from '@rollcall/sqlite-driver';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DurableOutbox } from './durable-outbox';
import { openCheckedOutbox } from './open-outbox';

const at = (iso: string) => new Date(iso);

describe('openCheckedOutbox: the integrity check at start (real SQLite files)', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rollcall-outbox-check-'));
    file = join(dir, 'outbox.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('opens a sound outbox as it is', () => {
    const first = DurableOutbox.open(file);
    first.enqueue({ cardUid: '04A1B2C3', deviceTime: at('2026-11-22T08:00:00Z') });
    first.close();
    const { outbox, recovery } = openCheckedOutbox(file);
    expect(recovery).toBeNull();
    expect(outbox.depth()).toBe(1);
    outbox.close();
  });

  it('moves a file that is not a database aside, reports it and starts a new one', () => {
    writeFileSync(file, 'this is not an SQLite database, but it is somebody’s data');
    const { outbox, recovery } = openCheckedOutbox(file);
    expect(recovery).toMatchObject({ problem: expect.stringMatching(/not a database/), salvagedLastSequence: null, salvagedScans: 0 });
    // never silently dropped: the bytes are still there, under the reported name
    expect(readFileSync(recovery!.movedTo, 'utf8')).toContain('somebody’s data');
    expect(readdirSync(dir).filter((name) => name.includes('.corrupt-'))).toHaveLength(1);
    expect(outbox.depth()).toBe(0);
    expect(outbox.enqueue({ cardUid: '04A1B2C3', deviceTime: at('2026-11-22T08:00:00Z') }).sequence).toBe(1);
    outbox.close();
  });

  it('carries the counter and the readable scans of a damaged outbox into the new one', () => {
    const first = DurableOutbox.open(file);
    for (let index = 0; index < 50; index += 1) first.enqueue({ cardUid: `04A1B2${(0x10 + index).toString(16).toUpperCase()}`, deviceTime: at('2026-11-22T08:00:00Z') });
    first.acknowledge(45);
    const outboxId = first.outboxId;
    first.close();
    // damage an index page: quick_check fails, the table itself still reads
    const db = new Database(file);
    db.exec('CREATE INDEX scans_by_card ON outbox_scans (card_uid)');
    const rootPage = (db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'scans_by_card'").get() as { rootpage: number }).rootpage;
    const pageSize = Number(db.pragma('page_size', { simple: true }));
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const bytes = readFileSync(file);
    bytes.fill(0xab, (rootPage - 1) * pageSize + 8, rootPage * pageSize);
    writeFileSync(file, bytes);

    const { outbox, recovery } = openCheckedOutbox(file);
    expect(recovery).toMatchObject({ salvagedLastSequence: 50, salvagedScans: 5 });
    expect(existsSync(recovery!.movedTo)).toBe(true);
    expect(outbox.peekBatch(10).map((scan) => scan.sequence)).toEqual([46, 47, 48, 49, 50]);
    // the same outbox to the server: a resend of 46-50 is a retry, and numbering goes on
    expect(outbox.outboxId).toBe(outboxId);
    const unrelated = DurableOutbox.open(recovery!.movedTo + '.fresh');
    expect(unrelated.outboxId).not.toBe(outboxId);
    unrelated.close();
    expect(outbox.enqueue({ cardUid: '04A1B2C3', deviceTime: at('2026-11-22T09:00:00Z') }).sequence).toBe(51);
    outbox.close();
  });
});
