import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from '@rollcall/sqlite-driver';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { allProjections } from '../../../all-projections';
import type { EventMetadata, EventStore, NewEvent } from '../../../platform/event-store/event-store.port';
import { SqliteEventStore } from '../../../platform/event-store/sqlite-event-store';
import { PersonalDataVault } from '../../../platform/personal-data/personal-data-vault';
import { SqlitePersonalDataKeys } from '../../../platform/personal-data/sqlite-personal-data-keys';
import { rebuildProjections } from '../../../platform/projections/projection-runner';
import { createReadDb } from '../../../platform/read-db/create-read-db';
import { EventLogProjection } from './event-log.projection';

/**
 * A rebuild on SQLite writes the event log's rows by SQL from the store's own rows (event-log-copy.ts);
 * they must be exactly the rows the JavaScript path writes. One store, rebuilt both ways into two
 * fresh read databases, compared byte for byte and type for type, every table. The store is rich where
 * the two paths could part: personal data sealed by the vault (docs/adr/0015), an erased account, a
 * personal event stored in clear before the vault, payloads JSON.stringify writes in its own ways
 * (numbers, key order, escapes, non-ASCII, null), and metadata the copy leaves to the JavaScript
 * way (times not in toISOString's form, a number for an id, a lone surrogate, no actor at all: set aside).
 */
describe('the event log rebuilt by SQL from the stored rows', () => {
  let dir: string;
  let eventsFile: string;
  let store: EventStore;
  const erasedAccount = randomUUID();
  const keptAccount = randomUUID();
  const clearAccount = randomUUID();
  const clearErasedAccount = randomUUID();

  const metadata = (overrides: Partial<Record<keyof EventMetadata, unknown>> = {}): EventMetadata =>
    ({ eventId: randomUUID(), actor: 'system', actorKind: 'system', sourceIp: null, correlationId: randomUUID(), causationId: null, occurredAt: new Date().toISOString(), ...overrides }) as EventMetadata;
  const created = (accountId: string, firstName: string, index = 0): NewEvent => ({
    type: 'AccountCreated',
    data: { accountId, username: `${firstName.toLowerCase()}.${index}.${accountId.slice(0, 8)}`, email: `${firstName.toLowerCase()}.${index}.${accountId.slice(0, 8)}@example.com`, firstName, lastName: 'Canary', passwordHash: null, statusId: 4, policyId: null, expiresAt: null, organizationId: null, sendActivation: false, isProtected: false, createdAt: new Date(1_700_000_000_000 + index).toISOString() },
    metadata: metadata(),
  });
  const append = (streamId: string, events: NewEvent[], into: EventStore = store) => into.appendToStream(streamId, events, { expectedVersion: 'any' });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rollcall-event-log-copy-'));
    eventsFile = join(dir, 'events.db');
    // before the vault: a personal event stored in clear, one of them for an account erased later
    const bare = new SqliteEventStore(eventsFile);
    await append(`account-${clearAccount}`, [created(clearAccount, 'Clearwater')], bare);
    await append(`account-${clearErasedAccount}`, [created(clearErasedAccount, 'Cleargone')], bare);
    await bare.close();
    store = new PersonalDataVault(new SqliteEventStore(eventsFile), new SqlitePersonalDataKeys(eventsFile));

    // personal events, sealed: more than one statement's worth (500) in one batch
    for (let index = 0; index < 620; index += 1) {
      const accountId = randomUUID();
      await append(`account-${accountId}`, [created(accountId, 'Bulk', index), { type: 'AccountSignedIn', data: { accountId, sessionId: randomUUID(), at: new Date(1_700_000_500_000 + index).toISOString() }, metadata: metadata({ sourceIp: '203.0.113.7' }) }]);
    }
    await append(`account-${keptAccount}`, [
      created(keptAccount, 'Zoë "Q" \\ Ünïcödé 🦉'),
      { type: 'AccountProfileUpdated', data: { accountId: keptAccount, firstName: 'Zoë', lastName: 'Tab\there\nline', email: 'zoe@example.com', additional: { middleName: null, nickname: '\u0001ctl', birthDate: '1990-01-01', gender: null, timeZone: 'Europe/Berlin', locale: 'de', website: null, profile: null, address: { street: 'Straße 1' }, telephone: [{ value: '+49 30 1', type: 'work' }], emails: [] }, updatedAt: new Date().toISOString() }, metadata: metadata({ causationId: randomUUID() }) },
      { type: 'AccountProfilePictureChanged', data: { accountId: keptAccount, picture: 'data:image/png;base64,AAAA', changedAt: new Date().toISOString() }, metadata: metadata() },
      { type: 'AccountClaimsChanged', data: { accountId: keptAccount, claims: { b: 'x', 10: 'ten', 9: 'nine', a: [1.5, 1e21, 0.1, -0] } }, metadata: metadata() },
    ]);
    await append(`account-${erasedAccount}`, [created(erasedAccount, 'Forgetme'), { type: 'AccountClaimsChanged', data: { accountId: erasedAccount, claims: { badge: 'Forgetme badge' } }, metadata: metadata() }]);
    await append(`account-${erasedAccount}`, [
      { type: 'AccountDeleted', data: { accountId: erasedAccount, deletedAt: new Date().toISOString() }, metadata: metadata() },
      { type: 'AccountPersonalDataErased', data: { accountId: erasedAccount, erasedAt: new Date().toISOString() }, metadata: metadata() },
    ]);
    await append(`account-${clearErasedAccount}`, [{ type: 'AccountPersonalDataErased', data: { accountId: clearErasedAccount, erasedAt: new Date().toISOString() }, metadata: metadata() }]);

    // payloads and metadata of every shape, on a stream no projection but the log reads
    const odd = (type: string, data: unknown, meta: EventMetadata) => append(`odd-${randomUUID()}`, [{ type, data, metadata: meta }]);
    await odd('OddNumbers', { big: 1e21, small: 1e-7, tenth: 0.1, negativeZero: -0, integer: 42, nested: [[], {}, [null]] }, metadata());
    await odd('OddKeys', { z: 1, 2: 'two', 1: 'one', ['__proto__']: 'own', '': 'empty' }, metadata());
    await odd('OddNull', null, metadata());
    await odd('OddText', 'just a string', metadata());
    await odd('OddEscapes', { quote: '"', backslash: '\\', newline: '\n', nul: '\u0000', bell: '\u0007', lineSeparator: '\u2028', loneSurrogate: '\ud800', emoji: '🦉' }, metadata());
    await odd('OddTimeWithoutMillis', { n: 1 }, metadata({ occurredAt: '2026-02-02T07:00:00Z' }));
    await odd('OddTimeWithOffset', { n: 2 }, metadata({ occurredAt: '2026-02-02T08:00:00+02:00' }));
    await odd('OddTimeNotATime', { n: 3 }, metadata({ occurredAt: 'yesterday' }));
    await odd('OddSourceIpMissing', { n: 4 }, metadata({ sourceIp: undefined, causationId: undefined }));
    await odd('OddNumericEventId', { n: 5 }, metadata({ eventId: 42 }));
    await odd('OddActorSurrogate', { n: 6 }, metadata({ actor: 'half \ud83e' }));
    await odd('OddActorEscapes', { n: 7 }, metadata({ actor: 'tab\tnew\nline "quoted"' }));
    await odd('OddDeviceTime', { n: 8 }, metadata({ deviceTime: '2026-02-02T06:59:58.000Z', actorKind: 'reader' }));
    await odd('OddNoActor', { n: 9 }, metadata({ actor: undefined }));
    await odd('OddActorObject', { n: 10 }, metadata({ actor: { id: 'x' } }));
  });
  afterAll(async () => {
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** rebuilds every read model into a fresh file: by SQL where `eventsFile` is given, else the JavaScript way */
  async function rebuildInto(name: string, options: { bySql: boolean; batchSize: number }): Promise<string> {
    const file = join(dir, `${name}.db`);
    const read = await createReadDb({ kind: 'sqlite', file }, { scratch: true });
    try {
      await rebuildProjections(store, read.db, allProjections(), { batchSize: options.batchSize, ...(options.bySql ? { eventStore: { kind: 'sqlite', file: eventsFile } } : {}) });
    } finally {
      await read.close();
    }
    return file;
  }

  /** per table, the rows one file has and the other has not (byte and type exact: SQLite's EXCEPT), both ways */
  function differences(left: string, right: string): Record<string, { only_left: number; only_right: number; rows: number }> {
    const db = new Database(left);
    try {
      db.prepare('ATTACH DATABASE ? AS other').run(right);
      const tables = db.prepare("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as Array<{ name: string }>;
      const otherTables = db.prepare("SELECT name FROM other.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as Array<{ name: string }>;
      expect(otherTables).toEqual(tables);
      const result: Record<string, { only_left: number; only_right: number; rows: number }> = {};
      for (const { name } of tables) {
        // the bookkeeping's clock columns differ by when each ran
        const columns = (db.prepare(`SELECT name FROM pragma_table_info('${name}')`).all() as Array<{ name: string }>).map((column) => column.name).filter((column) => column !== 'updated_at' && column !== 'set_aside_at');
        const list = columns.map((column) => `"${column}"`).join(', ');
        const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
        result[name] = {
          only_left: count(`SELECT count(*) AS n FROM (SELECT ${list} FROM main."${name}" EXCEPT SELECT ${list} FROM other."${name}")`),
          only_right: count(`SELECT count(*) AS n FROM (SELECT ${list} FROM other."${name}" EXCEPT SELECT ${list} FROM main."${name}")`),
          rows: count(`SELECT count(*) AS n FROM main."${name}"`),
        };
      }
      return result;
    } finally {
      db.close();
    }
  }

  it.each([
    ['one batch', 10_000],
    ['batches of 7 events', 7],
  ])('writes exactly the rows the JavaScript path writes, in every table (%s)', async (label, batchSize) => {
    const copies = vi.spyOn(EventLogProjection.prototype, 'copyBatch');
    const byJavaScript = await rebuildInto(`js-${batchSize}`, { bySql: false, batchSize });
    expect(copies).not.toHaveBeenCalled();
    const bySql = await rebuildInto(`sql-${batchSize}`, { bySql: true, batchSize });
    // the copy ran, over every batch
    expect(copies.mock.calls.length).toBeGreaterThanOrEqual(batchSize === 7 ? 1250 / 7 : 1);
    copies.mockRestore();

    const found = differences(byJavaScript, bySql);
    for (const [table, { only_left, only_right }] of Object.entries(found)) expect({ table, only_left, only_right }, label).toEqual({ table, only_left: 0, only_right: 0 });
    expect(found.event_log_v1.rows).toBeGreaterThan(1250);
    // the odd metadata really went the JavaScript way: set aside (no actor: NOT NULL; an object), normalized
    const db = new Database(bySql, { readonly: true });
    try {
      const setAside = db.prepare("SELECT event_type, projection FROM projection_set_aside WHERE projection = 'event_log_v1' ORDER BY event_type").all();
      expect(setAside).toEqual([
        { event_type: 'OddActorObject', projection: 'event_log_v1' },
        { event_type: 'OddNoActor', projection: 'event_log_v1' },
      ]);
      expect(db.prepare("SELECT recorded_at, event_id, typeof(event_id) AS kind FROM event_log_v1 WHERE event_type IN ('OddTimeWithOffset', 'OddNumericEventId') ORDER BY event_type").all()).toEqual([
        { recorded_at: expect.stringMatching(/Z$/), event_id: expect.stringMatching(/^42/), kind: 'text' },
        { recorded_at: '2026-02-02T06:00:00.000Z', event_id: expect.any(String), kind: 'text' },
      ]);
      // every checkpoint at the head, the idle projections' too
      const head = await store.headPosition();
      const checkpoints = db.prepare('SELECT projection, position_commit, position_sequence FROM projection_checkpoints').all() as Array<{ projection: string }>;
      expect(checkpoints).toHaveLength(allProjections().length);
      for (const checkpoint of checkpoints) expect(checkpoint, checkpoint.projection).toMatchObject({ position_commit: head.commit, position_sequence: head.sequence });
    } finally {
      db.close();
    }
  });

  it('keeps the erased account unreadable and the others opened, as the vault serves them (docs/adr/0015)', async () => {
    const bySql = await rebuildInto('sql-erasure', { bySql: true, batchSize: 10_000 });
    const db = new Database(bySql, { readonly: true });
    try {
      const payloads = (accountId: string) => (db.prepare('SELECT payload FROM event_log_v1 WHERE stream_id = ? ORDER BY position_commit').all(`account-${accountId}`) as Array<{ payload: string }>).map((row) => row.payload).join('\n');
      expect(payloads(erasedAccount)).not.toContain('Forgetme');
      expect(payloads(erasedAccount)).toContain(`erased-${erasedAccount}`);
      expect(payloads(clearErasedAccount)).not.toContain('Cleargone');
      expect(payloads(keptAccount)).toContain('Zoë \\"Q\\" \\\\ Ünïcödé 🦉');
      expect(payloads(clearAccount)).toContain('Clearwater');
      // nothing sealed reached the log
      expect((db.prepare("SELECT count(*) AS n FROM event_log_v1 WHERE payload LIKE '%sealedPersonalData%'").get() as { n: number }).n).toBe(0);
    } finally {
      db.close();
    }
    expect(readFileSync(bySql).includes('Forgetme')).toBe(false);
  });
});
