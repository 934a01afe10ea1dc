import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Database from '@rollcall/sqlite-driver';
import { ensurePrivateFile } from './private-files';
import { type Scan, scanSchema } from '../scans/scan';

/** A scan as it waits in the outbox. `sequence` is this outbox's reader sequence number (DESIGN 7). */
export interface QueuedScan {
  sequence: number;
  cardUid: string;
  deviceTime: Date;
  /** agent clock when the scan was made durable; lets health reports say how long the oldest one waited */
  enqueuedAt: Date;
  /**
   * the box's monotonic clock when the scan was queued: the boot it happened in and the time since
   * that boot (CLOCK_BOOTTIME, /proc/uptime), so its age survives an agent restart and a wall-clock
   * jump; null where the platform has none
   */
  bootId: string | null;
  bootMs: number | null;
}

/** The box's monotonic clock: this boot's id and the milliseconds since it (Linux), or nulls. */
export interface MonotonicClock {
  (): { bootId: string | null; bootMs: number | null };
}

export const linuxBootClock: MonotonicClock = () => {
  try {
    const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const uptime = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
    return Number.isFinite(uptime) && bootId ? { bootId, bootMs: Math.round(uptime * 1000) } : { bootId: null, bootMs: null };
  } catch {
    return { bootId: null, bootMs: null };
  }
};

export interface DurableOutboxOptions {
  /** injectable clock for `enqueuedAt` */
  now?: () => Date;
  /** injectable monotonic clock for each scan's boot id and time since boot */
  monotonic?: MonotonicClock;
}

/** Bumped whenever the tables change; an older agent refuses a file written by a newer one. */
const SCHEMA_VERSION = 3;

/** A scan the server refused for good (docs/readers.md, 'refused'): kept aside, never resent, reported. */
export interface DeadLetter {
  sequence: number;
  cardUid: string;
  deviceTime: Date;
  enqueuedAt: Date;
  refusedAt: Date;
  code: string;
  message: string;
}

interface ScanRow {
  sequence: number;
  card_uid: string;
  device_time: string;
  enqueued_at: string;
  boot_id?: string | null;
  boot_ms?: number | null;
}

/**
 * The agent's local, durable scan queue (DESIGN 8): a scan is committed and fsynced here before the
 * agent tells the user it was read, and it stays until the server acknowledges it.
 *
 * Sequences come from a counter row, not from MAX(sequence) or rowid: the server uses
 * (reader, outbox id, sequence) to drop duplicates, so a number handed out once must never come back,
 * not even after every row has been acknowledged and deleted. `outboxId` is random per database file:
 * if the data directory is wiped the counter restarts at 1, and the new id keeps those fresh scans
 * from being mistaken for duplicates of old ones.
 *
 * Everything is synchronous (better-sqlite3): when `enqueue` returns, the scan is on disk.
 */
export class DurableOutbox {
  private readonly db: Database.Database;
  private readonly now: () => Date;
  private readonly monotonic: MonotonicClock;
  private currentOutboxId: string;

  private readonly statements: {
    bumpSequence: Database.Statement<[], { last_sequence: number }>;
    lastSequence: Database.Statement<[], { last_sequence: number }>;
    insert: Database.Statement<[number, string, string, string, string | null, number | null]>;
    peek: Database.Statement<[number], ScanRow>;
    ackUpTo: Database.Statement<[number]>;
    ackOne: Database.Statement<[number]>;
    depth: Database.Statement<[], { depth: number }>;
    deadLetter: Database.Statement<[string, string, string, number]>;
    deadLetters: Database.Statement<[], ScanRow & { refused_at: string; code: string; message: string }>;
    deadLetterCount: Database.Statement<[], { count: number }>;
  };

  private constructor(db: Database.Database, options: DurableOutboxOptions) {
    this.db = db;
    this.now = options.now ?? (() => new Date());
    this.monotonic = options.monotonic ?? linuxBootClock;
    this.statements = {
      bumpSequence: db.prepare('UPDATE outbox_meta SET last_sequence = last_sequence + 1 WHERE singleton = 1 RETURNING last_sequence'),
      lastSequence: db.prepare('SELECT last_sequence FROM outbox_meta WHERE singleton = 1'),
      insert: db.prepare('INSERT INTO outbox_scans (sequence, card_uid, device_time, enqueued_at, boot_id, boot_ms) VALUES (?, ?, ?, ?, ?, ?)'),
      peek: db.prepare('SELECT sequence, card_uid, device_time, enqueued_at, boot_id, boot_ms FROM outbox_scans ORDER BY sequence LIMIT ?'),
      ackUpTo: db.prepare('DELETE FROM outbox_scans WHERE sequence <= ?'),
      ackOne: db.prepare('DELETE FROM outbox_scans WHERE sequence = ?'),
      depth: db.prepare('SELECT COUNT(*) AS depth FROM outbox_scans'),
      deadLetter: db.prepare(
        'INSERT OR REPLACE INTO dead_letters (sequence, card_uid, device_time, enqueued_at, refused_at, code, message) SELECT sequence, card_uid, device_time, enqueued_at, ?, ?, ? FROM outbox_scans WHERE sequence = ?',
      ),
      deadLetters: db.prepare('SELECT sequence, card_uid, device_time, enqueued_at, refused_at, code, message FROM dead_letters ORDER BY sequence'),
      deadLetterCount: db.prepare('SELECT COUNT(*) AS count FROM dead_letters'),
    };
    const meta = db.prepare<[], { outbox_id: string }>('SELECT outbox_id FROM outbox_meta WHERE singleton = 1').get();
    if (!meta) throw new Error('outbox_meta row is missing: the outbox file is damaged');
    this.currentOutboxId = meta.outbox_id;
  }

  /** the id the server judges this outbox's sequences by */
  get outboxId(): string {
    return this.currentOutboxId;
  }

  /**
   * Takes over a damaged outbox's id with its counter and queued scans (open-outbox.ts): those scans
   * may have reached the server already, and under the old id a resend is a retry, never a second count.
   */
  adoptOutboxId(outboxId: string): void {
    this.db.prepare('UPDATE outbox_meta SET outbox_id = ? WHERE singleton = 1').run(outboxId);
    this.currentOutboxId = outboxId;
  }

  /** Opens (creating if needed) the outbox at `filePath`. The directory must exist. */
  static open(filePath: string, options: DurableOutboxOptions = {}): DurableOutbox {
    // created 0600 first: SQLite gives the -wal and -shm beside it the same mode
    ensurePrivateFile(filePath);
    const db = new Database(filePath);
    try {
      configureDurability(db, filePath);
      migrate(db, filePath);
      return new DurableOutbox(db, options);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** Validates, assigns the next sequence and commits (fsync) before returning. */
  enqueue(scan: Scan): QueuedScan {
    const parsed = scanSchema.safeParse(scan);
    if (!parsed.success) {
      throw new TypeError(`refusing to queue an invalid scan: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
    }
    const enqueuedAt = this.now();
    const { bootId, bootMs } = this.monotonic();
    // IMMEDIATE takes the write lock up front, so a second process on the same file waits for the
    // busy timeout instead of both reading the same counter value.
    const insert = this.db.transaction((valid: Scan): number => {
      const bumped = this.statements.bumpSequence.get();
      if (!bumped) throw new Error('outbox_meta row is missing: the outbox file is damaged');
      this.statements.insert.run(bumped.last_sequence, valid.cardUid, valid.deviceTime.toISOString(), enqueuedAt.toISOString(), bootId, bootMs);
      return bumped.last_sequence;
    });
    const sequence = insert.immediate(parsed.data);
    return { sequence, cardUid: parsed.data.cardUid, deviceTime: new Date(parsed.data.deviceTime), enqueuedAt, bootId, bootMs };
  }

  /**
   * The server said a queued scan's sequence was already used by another scan: this file was rolled
   * back (a restored disk image) and handed out numbers again. Starts a new outbox id (a new
   * idempotency namespace on the server) and renumbers every queued scan from 1 in its order, in one
   * transaction; nothing is dropped. Answers the new id and how many scans were renumbered.
   */
  startNewOutbox(): { outboxId: string; previousOutboxId: string; renumbered: number } {
    const previousOutboxId = this.currentOutboxId;
    const outboxId = randomUUID();
    const renumber = this.db.transaction(() => {
      const rows = this.db.prepare<[], ScanRow>('SELECT sequence, card_uid, device_time, enqueued_at, boot_id, boot_ms FROM outbox_scans ORDER BY sequence').all();
      this.db.prepare('DELETE FROM outbox_scans').run();
      rows.forEach((row, index) => this.statements.insert.run(index + 1, row.card_uid, row.device_time, row.enqueued_at, row.boot_id ?? null, row.boot_ms ?? null));
      this.db.prepare('UPDATE outbox_meta SET outbox_id = ?, last_sequence = ? WHERE singleton = 1').run(outboxId, rows.length);
      return rows.length;
    });
    const renumbered = renumber.immediate();
    this.currentOutboxId = outboxId;
    return { outboxId, previousOutboxId, renumbered };
  }

  /** the box's monotonic clock now (for a queued scan's age) */
  monotonicNow(): { bootId: string | null; bootMs: number | null } {
    return this.monotonic();
  }

  /** Up to `limit` unacknowledged scans, oldest (lowest sequence) first. Nothing is removed. */
  peekBatch(limit: number): QueuedScan[] {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`peekBatch limit must be a positive integer, got ${limit}`);
    return this.statements.peek.all(limit).map(toQueuedScan);
  }

  /**
   * Deletes acknowledged scans: either every sequence up to and including `upToSequence` (the server
   * acknowledges a prefix), or exactly the listed sequences (it acknowledged a batch out of order).
   * Returns how many rows were deleted; acknowledging an already deleted sequence is harmless, since
   * a retried acknowledgement must be.
   *
   * A sequence this outbox never handed out is refused: it means the server is talking about another
   * outbox (for example one from before the data directory was wiped), and deleting on its word could
   * drop scans it has never seen.
   */
  acknowledge(ack: number | readonly number[]): number {
    const last = this.lastSequence();
    const check = (sequence: number) => {
      if (!Number.isSafeInteger(sequence) || sequence < 0) throw new RangeError(`sequence must be a non-negative integer, got ${sequence}`);
      if (sequence > last) throw new RangeError(`cannot acknowledge sequence ${sequence}: this outbox has only handed out up to ${last}`);
    };
    if (typeof ack === 'number') {
      check(ack);
      return this.statements.ackUpTo.run(ack).changes;
    }
    ack.forEach(check);
    const deleteAll = this.db.transaction((sequences: readonly number[]) =>
      sequences.reduce((deleted, sequence) => deleted + this.statements.ackOne.run(sequence).changes, 0),
    );
    return deleteAll(ack);
  }

  /**
   * Moves a scan the server refused for good (a malformed UID, a sequence that goes backwards) out of
   * the queue into `dead_letters`, in one transaction: retrying it cannot help and would block every
   * scan behind it, but dropping it silently would lose a person's scan. Answers false when the
   * sequence is not queued (already acknowledged or moved).
   */
  deadLetter(sequence: number, error: { code: string; message: string }): boolean {
    const move = this.db.transaction(() => {
      const copied = this.statements.deadLetter.run(this.now().toISOString(), error.code, error.message, sequence).changes;
      if (copied === 0) return false;
      this.statements.ackOne.run(sequence);
      return true;
    });
    return move.immediate();
  }

  /** The scans set aside, oldest first. */
  deadLetters(): DeadLetter[] {
    return this.statements.deadLetters.all().map((row) => ({ ...toQueuedScan(row), refusedAt: new Date(row.refused_at), code: row.code, message: row.message }));
  }

  /** the latest scan set aside, for health reports */
  lastDeadLetter(): DeadLetter | undefined {
    const row = this.db.prepare<[], ScanRow & { refused_at: string; code: string; message: string }>('SELECT sequence, card_uid, device_time, enqueued_at, refused_at, code, message FROM dead_letters ORDER BY refused_at DESC, rowid DESC LIMIT 1').get();
    return row ? { ...toQueuedScan(row), refusedAt: new Date(row.refused_at), code: row.code, message: row.message } : undefined;
  }

  deadLetterCount(): number {
    return this.statements.deadLetterCount.get()?.count ?? 0;
  }

  /**
   * The reader this outbox's scans belong to. The first agent to send records it; afterwards a
   * configuration naming another reader is refused, since sending these scans with another reader's
   * token would credit them to the wrong door. Answers the recorded id.
   */
  bindReader(readerId: string): string {
    const bind = this.db.transaction(() => {
      this.db.prepare("INSERT OR IGNORE INTO agent_meta (key, value) VALUES ('reader_id', ?)").run(readerId);
      return this.db.prepare<[], { value: string }>("SELECT value FROM agent_meta WHERE key = 'reader_id'").get()?.value ?? readerId;
    });
    return bind.immediate();
  }

  /**
   * Makes the next handed-out sequence at least `lastSequence + 1`: used when a damaged outbox was
   * moved aside, so the fresh file does not number from 1 again (the server would refuse those scans
   * as going backwards). Never lowers the counter.
   */
  raiseSequenceTo(lastSequence: number): void {
    this.db.prepare('UPDATE outbox_meta SET last_sequence = MAX(last_sequence, ?) WHERE singleton = 1').run(lastSequence);
  }

  /** Puts back a scan read from a damaged outbox with its original sequence (see `raiseSequenceTo`). */
  restore(scan: QueuedScan): void {
    this.db
      .prepare('INSERT OR IGNORE INTO outbox_scans (sequence, card_uid, device_time, enqueued_at, boot_id, boot_ms) VALUES (?, ?, ?, ?, ?, ?)')
      .run(scan.sequence, scan.cardUid, scan.deviceTime.toISOString(), scan.enqueuedAt.toISOString(), scan.bootId, scan.bootMs);
  }

  /** Number of scans not yet acknowledged. */
  depth(): number {
    return this.statements.depth.get()?.depth ?? 0;
  }

  /** The oldest unacknowledged scan, or undefined when the queue is empty. */
  oldestUnsent(): QueuedScan | undefined {
    const [row] = this.statements.peek.all(1);
    return row ? toQueuedScan(row) : undefined;
  }

  /** The highest sequence ever handed out (0 before the first scan), whether or not it was acknowledged. */
  lastSequence(): number {
    const row = this.statements.lastSequence.get();
    if (!row) throw new Error('outbox_meta row is missing: the outbox file is damaged');
    return row.last_sequence;
  }

  /** Closes the file (checkpointing the WAL). Safe to call twice. */
  close(): void {
    if (this.db.open) this.db.close();
  }
}

function configureDurability(db: Database.Database, filePath: string): void {
  // WAL lets a health reader look at the queue while scans are written; synchronous=FULL fsyncs the
  // WAL on every commit, which is what makes "written before acknowledged" survive a power cut
  // (NORMAL, the usual WAL pairing, can lose the last commits).
  const journalMode = db.pragma('journal_mode = WAL', { simple: true });
  if (String(journalMode).toLowerCase() !== 'wal') {
    throw new Error(`outbox ${filePath}: SQLite refused WAL mode (got '${String(journalMode)}'); it needs a local file system`);
  }
  db.pragma('synchronous = FULL');
  // Read back rather than trust: a silent fallback here would quietly weaken the durability promise.
  const synchronous = Number(db.pragma('synchronous', { simple: true }));
  if (synchronous < 2) throw new Error(`outbox ${filePath}: could not set synchronous=FULL (got ${synchronous})`);
  // Another process (an operator's sqlite3 shell, a second agent by mistake) waits rather than fails.
  db.pragma('busy_timeout = 5000');
}

function migrate(db: Database.Database, filePath: string): void {
  // The version is read inside the write transaction so two processes opening a new file at once
  // cannot both create the tables.
  db.transaction(() => {
    const version = Number(db.pragma('user_version', { simple: true }));
    if (version > SCHEMA_VERSION) {
      throw new Error(`outbox ${filePath} has schema version ${version}, newer than this agent's ${SCHEMA_VERSION}: upgrade the agent rather than risk the queued scans`);
    }
    if (version === SCHEMA_VERSION) return;
    if (version < 1) createVersion1(db);
    if (version < 2) createVersion2(db);
    // 3: each scan's monotonic time (boot id, time since boot), for its age when sent
    db.exec(`
      ALTER TABLE outbox_scans ADD COLUMN boot_id TEXT;
      ALTER TABLE outbox_scans ADD COLUMN boot_ms INTEGER;
    `);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

function createVersion2(db: Database.Database): void {
    // 2: scans the server refused for good, and the reader the outbox belongs to
    db.exec(`
      CREATE TABLE dead_letters (
        sequence    INTEGER PRIMARY KEY,
        card_uid    TEXT    NOT NULL,
        device_time TEXT    NOT NULL,
        enqueued_at TEXT    NOT NULL,
        refused_at  TEXT    NOT NULL,
        code        TEXT    NOT NULL,
        message     TEXT    NOT NULL
      ) STRICT;
      CREATE TABLE agent_meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;
    `);
}

function createVersion1(db: Database.Database): void {
  db.exec(`
      CREATE TABLE outbox_meta (
        singleton     INTEGER PRIMARY KEY CHECK (singleton = 1),
        outbox_id     TEXT    NOT NULL,
        last_sequence INTEGER NOT NULL CHECK (last_sequence >= 0)
      ) STRICT;
      CREATE TABLE outbox_scans (
        sequence    INTEGER PRIMARY KEY,
        card_uid    TEXT    NOT NULL,
        device_time TEXT    NOT NULL,
        enqueued_at TEXT    NOT NULL
      ) STRICT;
    `);
  db.prepare('INSERT INTO outbox_meta (singleton, outbox_id, last_sequence) VALUES (1, ?, 0)').run(randomUUID());
}

function toQueuedScan(row: ScanRow): QueuedScan {
  return { sequence: row.sequence, cardUid: row.card_uid, deviceTime: new Date(row.device_time), enqueuedAt: new Date(row.enqueued_at), bootId: row.boot_id ?? null, bootMs: row.boot_ms ?? null };
}
