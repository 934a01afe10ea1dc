/**
 * Where the per-account keys of docs/adr/0015 live: beside the events (same SQLite file, same
 * PostgreSQL schema), because a key lost while its events remain is data lost. Destroying a key is
 * the erasure: what it sealed can never be read again, in the store or in any replay.
 */
export interface PersonalDataKeys {
  /** the keys of these subjects; 'erased' for a destroyed one; absent when none was ever made */
  load(subjects: readonly string[]): Promise<Map<string, Buffer | 'erased'>>;
  /** the subject's key, made now if it has none; null when it was destroyed (nothing new may be sealed for it) */
  obtain(subject: string): Promise<Buffer | null>;
  /** destroys the key for good, leaving a tombstone so no new key is ever made for the subject; idempotent */
  destroy(subject: string, at: string): Promise<void>;
  /** after an erasure: drop what the storage still keeps of freed pages (SQLite's WAL); best effort */
  compact(): Promise<void>;
  close(): Promise<void>;
}

/** 256-bit keys for AES-256-GCM */
export const KEY_BYTES = 32;
