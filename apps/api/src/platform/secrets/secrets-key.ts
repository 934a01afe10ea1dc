import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AppConfig } from '../config/app-config';

/**
 * The key that encrypts secrets at rest (the OpenID Connect signing and cookie keys, docs/adr/0014,
 * 'Keys at rest'): ROLLCALL_SECRETS_KEY, or else the key file (ROLLCALL_SECRETS_KEY_FILE, default
 * `<data dir>.key`, beside the data directory and never inside it, so a copy of the data directory
 * does not carry the key that opens it), created with 32 random bytes and mode 0600 on the first
 * start. ROLLCALL_SECRETS_KEY_PREVIOUS is the key before a rotation: what it sealed is opened once
 * and sealed again with the current key.
 */
export interface SecretsKeys {
  current: Buffer;
  previous: Buffer | null;
  /** where the current key came from, for messages */
  source: string;
}

/** A refusal to start: the key is unreadable, malformed, or not the one the stored secrets were sealed with. */
export class SecretsKeyError extends Error {}

/** a short, non-secret name of a key (the first bytes of its SHA-256), to tell keys apart in messages and sealed values */
export const keyIdOf = (key: Buffer) => createHash('sha256').update('rollcall secrets key id').update(key).digest('base64url').slice(0, 11);

function decodeKey(text: string, source: string): Buffer {
  const trimmed = text.trim();
  const key = /^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed) ? Buffer.from(trimmed, 'base64') : Buffer.alloc(0);
  if (key.length !== 32) throw new SecretsKeyError(`The secrets key in ${source} is not base64 of 32 bytes (e.g. the output of \`openssl rand -base64 32\`)`);
  return key;
}

/** The secrets keys of this start: from the environment, or the key file (created on the first start). */
export function loadSecretsKeys(config: Pick<AppConfig, 'secrets'>): SecretsKeys {
  const { key, keyFile, previousKey } = config.secrets;
  const previous = previousKey ? decodeKey(previousKey, 'ROLLCALL_SECRETS_KEY_PREVIOUS') : null;
  if (key) return { current: decodeKey(key, 'ROLLCALL_SECRETS_KEY'), previous, source: 'ROLLCALL_SECRETS_KEY' };
  const source = `the key file ${keyFile}`;
  // written whole beside it, then linked into place: never overwrites a key another start created a
  // moment ago, and nobody reads a half-written one
  const draft = `${keyFile}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    mkdirSync(dirname(keyFile), { recursive: true, mode: 0o700 });
    writeFileSync(draft, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    linkSync(draft, keyFile);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new SecretsKeyError(`Cannot create ${source}: ${(error as Error).message}`);
  } finally {
    rmSync(draft, { force: true });
  }
  let text: string;
  try {
    text = readFileSync(keyFile, 'utf8');
    // readable by the service's user alone, whoever created it
    if ((statSync(keyFile).mode & 0o077) !== 0) chmodSync(keyFile, 0o600);
  } catch (error) {
    throw new SecretsKeyError(`Cannot read ${source}: ${(error as Error).message}`);
  }
  return { current: decodeKey(text, source), previous, source };
}

/** A secret sealed with AES-256-GCM: what is stored instead of the clear value. */
export interface SealedSecret {
  sealed: 'A256GCM';
  /** keyIdOf the key that sealed it */
  kid: string;
  iv: string;
  tag: string;
  data: string;
}

export const isSealed = (value: unknown): value is SealedSecret =>
  typeof value === 'object' && value !== null && (value as SealedSecret).sealed === 'A256GCM' && typeof (value as SealedSecret).data === 'string';

/** `context` names what is sealed (e.g. the row it is stored in): a sealed value moved elsewhere does not open. */
export function seal(key: Buffer, clear: string, context: string): SealedSecret {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context));
  const data = Buffer.concat([cipher.update(clear, 'utf8'), cipher.final()]);
  return { sealed: 'A256GCM', kid: keyIdOf(key), iv: iv.toString('base64url'), tag: cipher.getAuthTag().toString('base64url'), data: data.toString('base64url') };
}

/** the clear value, or null when `key` is not the one that sealed it (or the value was altered) */
export function unseal(key: Buffer, sealed: SealedSecret, context: string): string | null {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64url'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
