import { existsSync, renameSync } from 'node:fs';
import Database from '@rollcall/sqlite-driver';
import { DurableOutbox, type DurableOutboxOptions, type QueuedScan } from './durable-outbox';

/** What happened to a damaged outbox file: where it went and what could be carried over. */
export interface OutboxRecovery {
  /** the damaged file's new name (its -wal and -shm files moved with it) */
  movedTo: string;
  /** what SQLite said was wrong */
  problem: string;
  /** the damaged file's sequence counter, if it could still be read */
  salvagedLastSequence: number | null;
  /** queued scans read back from the damaged file and put in the new one */
  salvagedScans: number;
}

export interface OpenedOutbox {
  outbox: DurableOutbox;
  recovery: OutboxRecovery | null;
}

/**
 * Opens the outbox after an integrity check (`PRAGMA quick_check`). A file that fails it (a disk
 * error, a half-copied backup, not a database at all) is never silently dropped: it is renamed to
 * `<file>.corrupt-<time>` next to the original, whatever can still be read from it (the sequence
 * counter, queued scans) is carried into a fresh outbox, and the caller gets a report to log.
 * The outbox id goes along when it can be read: the queued scans may have reached the server before the
 * damage, and under their old outbox a resend is answered as a retry. A file whose id is unreadable
 * starts a new outbox, numbered afresh on the server (docs/readers.md, 'Outboxes').
 */
export function openCheckedOutbox(filePath: string, options: DurableOutboxOptions = {}): OpenedOutbox {
  const problem = existsSync(filePath) ? integrityProblem(filePath) : null;
  if (problem === null) return { outbox: DurableOutbox.open(filePath, options), recovery: null };

  const movedTo = `${filePath}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(filePath + suffix)) renameSync(filePath + suffix, movedTo + suffix);
  }
  const salvaged = salvage(movedTo);
  const outbox = DurableOutbox.open(filePath, options);
  if (salvaged.outboxId) outbox.adoptOutboxId(salvaged.outboxId);
  const highest = Math.max(salvaged.lastSequence ?? 0, ...salvaged.scans.map((scan) => scan.sequence));
  outbox.raiseSequenceTo(highest);
  for (const scan of salvaged.scans) outbox.restore(scan);
  return { outbox, recovery: { movedTo, problem, salvagedLastSequence: salvaged.lastSequence, salvagedScans: salvaged.scans.length } };
}

/** null when the file is a sound SQLite database, else what is wrong with it */
function integrityProblem(filePath: string): string | null {
  let db: Database.Database | undefined;
  try {
    db = new Database(filePath, { fileMustExist: true });
    const rows = db.pragma('quick_check') as Array<{ quick_check: string }>;
    const findings = rows.map((row) => row.quick_check).filter((finding) => finding !== 'ok');
    return findings.length === 0 ? null : findings.slice(0, 5).join('; ');
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    db?.close();
  }
}

/** Best effort: each read is tried on its own, so a damaged table does not hide a sound one. */
function salvage(filePath: string): { lastSequence: number | null; outboxId: string | null; scans: QueuedScan[] } {
  let db: Database.Database | undefined;
  let lastSequence: number | null = null;
  let outboxId: string | null = null;
  const scans: QueuedScan[] = [];
  try {
    db = new Database(filePath, { readonly: true, fileMustExist: true });
    try {
      const row = db.prepare<[], { last_sequence: number; outbox_id: unknown }>('SELECT last_sequence, outbox_id FROM outbox_meta WHERE singleton = 1').get();
      if (row && Number.isSafeInteger(row.last_sequence)) lastSequence = row.last_sequence;
      if (row && typeof row.outbox_id === 'string' && /^[A-Za-z0-9_-]{8,64}$/.test(row.outbox_id)) outboxId = row.outbox_id;
    } catch {
      // unreadable counter: the highest salvaged scan (if any) is the best we have
    }
    try {
      for (const row of db.prepare<[], { sequence: number; card_uid: string; device_time: string; enqueued_at: string }>('SELECT sequence, card_uid, device_time, enqueued_at FROM outbox_scans ORDER BY sequence').iterate()) {
        const deviceTime = new Date(row.device_time);
        if (!Number.isSafeInteger(row.sequence) || typeof row.card_uid !== 'string' || Number.isNaN(deviceTime.getTime())) continue;
        const enqueuedAt = new Date(row.enqueued_at);
        // the monotonic time is not trusted from a damaged file: the scan goes without an age
        scans.push({ sequence: row.sequence, cardUid: row.card_uid, deviceTime, enqueuedAt: Number.isNaN(enqueuedAt.getTime()) ? deviceTime : enqueuedAt, bootId: null, bootMs: null });
      }
    } catch {
      // the rows read before the damage are kept
    }
  } catch {
    // not openable at all: nothing to carry over; the moved file stays for a person to look at
  } finally {
    db?.close();
  }
  return { lastSequence, outboxId, scans };
}
