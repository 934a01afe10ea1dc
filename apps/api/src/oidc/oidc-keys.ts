import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ReadDatabase } from '../read-db/read-database';

/** A private signing key as a JWK (RS256), with its key id. */
export type SigningJwk = { kid: string; alg: 'RS256'; use: 'sig'; kty: string; [member: string]: unknown };

export interface OidcKeys {
  /** the first one signs; the others stay published so tokens signed before a rotation still verify */
  signing: SigningJwk[];
  /** for the provider's signed cookies; the first signs, all verify */
  cookies: string[];
}

/** Kept in oidc_store beside the protocol state: one row, never expiring, shared by every API instance on the database. */
const MODEL = 'RollcallKeys';
const ID = 'current';
/** after a rotation the old key is still published (and its tokens verify) until the next rotation */
const KEPT_AFTER_ROTATION = 2;

function newSigningKey(): SigningJwk {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' });
  return { ...jwk, kty: jwk.kty ?? 'RSA', kid: randomBytes(12).toString('base64url'), alg: 'RS256', use: 'sig' };
}

const newCookieKey = () => randomBytes(32).toString('base64url');

async function read(db: Kysely<ReadDatabase>): Promise<OidcKeys | null> {
  const row = await db.selectFrom('oidc_store').select('payload').where('model', '=', MODEL).where('id', '=', ID).executeTakeFirst();
  return row ? (JSON.parse(row.payload) as OidcKeys) : null;
}

/** The keys, generated on the first start. Two instances starting at once: the first insert wins and both read it. */
export async function loadOrCreateOidcKeys(db: Kysely<ReadDatabase>): Promise<OidcKeys> {
  const existing = await read(db);
  if (existing) return existing;
  const keys: OidcKeys = { signing: [newSigningKey()], cookies: [newCookieKey()] };
  await db
    .insertInto('oidc_store')
    .values({ model: MODEL, id: ID, payload: JSON.stringify(keys), grant_id: null, account_id: null, client_id: null, uid: null, user_code: null, expires_at: null, consumed_at: null })
    .onConflict((oc) => oc.columns(['model', 'id']).doNothing())
    .execute();
  return (await read(db))!;
}

/** A new signing key signs from now on; the previous one stays published for tokens already issued. */
export async function rotateOidcSigningKey(db: Kysely<ReadDatabase>): Promise<OidcKeys> {
  const current = await loadOrCreateOidcKeys(db);
  const keys: OidcKeys = { signing: [newSigningKey(), ...current.signing].slice(0, KEPT_AFTER_ROTATION), cookies: current.cookies };
  await db.updateTable('oidc_store').set({ payload: JSON.stringify(keys) }).where('model', '=', MODEL).where('id', '=', ID).execute();
  return keys;
}

/** the key ids as published in the JWKS, newest (signing) first */
export const publishedKeyIds = (keys: OidcKeys) => keys.signing.map((key) => key.kid);
