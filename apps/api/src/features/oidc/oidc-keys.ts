import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { SqliteAdapter, sql, type Kysely } from 'kysely';
import type { ReadDatabase } from '../../platform/read-db/read-database';
import { isSealed, keyIdOf, seal, SecretsKeyError, unseal, type SecretsKeys } from '../../platform/secrets/secrets-key';

/** A private signing key as a JWK (RS256), with its key id. */
export type SigningJwk = { kid: string; alg: 'RS256'; use: 'sig'; kty: string; [member: string]: unknown };

export interface OidcKeys {
  /** the first one signs; the others stay published so tokens signed before a rotation still verify */
  signing: SigningJwk[];
  /** for the provider's signed cookies; the first signs, all verify */
  cookies: string[];
}

/**
 * Kept in oidc_store beside the protocol state: one row, never expiring, shared by every API instance
 * on the database, its payload sealed with the secrets key (AES-256-GCM, secrets/secrets-key.ts):
 * the row holds no private key in clear (docs/adr/0014, 'Keys at rest').
 */
const MODEL = 'RollcallKeys';
const ID = 'current';
/** bound into the sealed value: it opens only as this row */
const CONTEXT = `oidc_store/${MODEL}/${ID}`;
/** after a rotation the old key is still published (and its tokens verify) until the next rotation */
const KEPT_AFTER_ROTATION = 2;

const logger = new Logger('OidcKeys');

function newSigningKey(): SigningJwk {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' });
  return { ...jwk, kty: jwk.kty ?? 'RSA', kid: randomBytes(12).toString('base64url'), alg: 'RS256', use: 'sig' };
}

const newCookieKey = () => randomBytes(32).toString('base64url');

const sealKeys = (keys: OidcKeys, secrets: SecretsKeys) => JSON.stringify(seal(secrets.current, JSON.stringify(keys), CONTEXT));

/** The stored keys, opened; `reseal` when they are in clear (stored before keys were sealed) or sealed with the previous key. */
async function read(db: Kysely<ReadDatabase>, secrets: SecretsKeys): Promise<{ keys: OidcKeys; reseal: 'clear' | 'previous' | null } | null> {
  const row = await db.selectFrom('oidc_store').select('payload').where('model', '=', MODEL).where('id', '=', ID).executeTakeFirst();
  if (!row) return null;
  const stored = JSON.parse(row.payload) as unknown;
  if (!isSealed(stored)) return { keys: stored as OidcKeys, reseal: 'clear' };
  const opened = unseal(secrets.current, stored, CONTEXT);
  if (opened !== null) return { keys: JSON.parse(opened) as OidcKeys, reseal: null };
  const openedWithPrevious = secrets.previous ? unseal(secrets.previous, stored, CONTEXT) : null;
  if (openedWithPrevious !== null) return { keys: JSON.parse(openedWithPrevious) as OidcKeys, reseal: 'previous' };
  throw new SecretsKeyError(
    `The OpenID Connect keys in the read database are sealed with another secrets key (key id ${stored.kid}) than ${secrets.source} (key id ${keyIdOf(secrets.current)})` +
      (secrets.previous ? ` or ROLLCALL_SECRETS_KEY_PREVIOUS (key id ${keyIdOf(secrets.previous)})` : '') +
      '. Start with the key they were sealed with, or give it as ROLLCALL_SECRETS_KEY_PREVIOUS beside the new ROLLCALL_SECRETS_KEY to re-seal them (docs/running-in-production.md, "Secrets key").',
  );
}

/**
 * The row's earlier versions are gone from the files: SQLite zeroes the rewritten row (secure_delete,
 * read-db/create-read-db.ts) and its WAL is checkpointed and truncated; PostgreSQL rewrites the table
 * without its dead row versions.
 */
async function dropEarlierVersions(db: Kysely<ReadDatabase>): Promise<void> {
  try {
    if (db.getExecutor().adapter instanceof SqliteAdapter) await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
    else await sql`VACUUM FULL oidc_store`.execute(db);
  } catch (error) {
    logger.warn(`the clear copy of the OpenID Connect keys may stay in the database files until the next checkpoint or vacuum: ${(error as Error).message}`);
  }
}

async function store(db: Kysely<ReadDatabase>, keys: OidcKeys, secrets: SecretsKeys): Promise<void> {
  await db.updateTable('oidc_store').set({ payload: sealKeys(keys, secrets) }).where('model', '=', MODEL).where('id', '=', ID).execute();
}

/**
 * The keys, generated on the first start. Two instances starting at once: the first insert wins and
 * both read it. Keys stored in clear (before they were sealed) or sealed with the previous secrets
 * key are sealed again with the current one; a secrets key that opens nothing stops the start.
 */
export async function loadOrCreateOidcKeys(db: Kysely<ReadDatabase>, secrets: SecretsKeys): Promise<OidcKeys> {
  const existing = await read(db, secrets);
  if (existing) {
    if (existing.reseal) {
      await store(db, existing.keys, secrets);
      await dropEarlierVersions(db);
      logger.log(existing.reseal === 'clear' ? 'the OpenID Connect keys stored in clear are now sealed with the secrets key' : 'the OpenID Connect keys are now sealed with the new secrets key');
    }
    return existing.keys;
  }
  const keys: OidcKeys = { signing: [newSigningKey()], cookies: [newCookieKey()] };
  await db
    .insertInto('oidc_store')
    .values({ model: MODEL, id: ID, payload: sealKeys(keys, secrets), grant_id: null, account_id: null, client_id: null, uid: null, user_code: null, expires_at: null, consumed_at: null })
    .onConflict((oc) => oc.columns(['model', 'id']).doNothing())
    .execute();
  return (await read(db, secrets))!.keys;
}

/** A new signing key signs from now on; the previous one stays published for tokens already issued. */
export async function rotateOidcSigningKey(db: Kysely<ReadDatabase>, secrets: SecretsKeys): Promise<OidcKeys> {
  const current = await loadOrCreateOidcKeys(db, secrets);
  const keys: OidcKeys = { signing: [newSigningKey(), ...current.signing].slice(0, KEPT_AFTER_ROTATION), cookies: current.cookies };
  await store(db, keys, secrets);
  return keys;
}

/** the key ids as published in the JWKS, newest (signing) first */
export const publishedKeyIds = (keys: OidcKeys) => keys.signing.map((key) => key.kid);
