import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ReadDatabase } from '../../platform/read-db/read-database';

/** What oidc-provider hands an adapter: its models' payloads (see oidc-provider's adapter contract). */
export interface OidcPayload {
  grantId?: string;
  uid?: string;
  userCode?: string;
  consumed?: number;
  [key: string]: unknown;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Creates oidc_store: owned by no projection, so the provider creates it itself (idempotent). */
export async function setupOidcStore(db: Kysely<ReadDatabase>): Promise<void> {
  await db.schema
    .createTable('oidc_store')
    .ifNotExists()
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'text')
    .addColumn('account_id', 'text')
    .addColumn('client_id', 'text')
    .addColumn('uid', 'text')
    .addColumn('user_code', 'text')
    .addColumn('expires_at', 'bigint')
    .addColumn('consumed_at', 'bigint')
    .addPrimaryKeyConstraint('oidc_store_pk', ['model', 'id'])
    .execute();
  // revokeByGrantId, findByUid, and the sweep of expired rows
  await db.schema.createIndex('oidc_store_grant').ifNotExists().on('oidc_store').column('grant_id').execute();
  await db.schema.createIndex('oidc_store_account_client').ifNotExists().on('oidc_store').columns(['account_id', 'client_id']).execute();
  await db.schema.createIndex('oidc_store_uid').ifNotExists().on('oidc_store').column('uid').execute();
  await db.schema.createIndex('oidc_store_expires').ifNotExists().on('oidc_store').column('expires_at').execute();
}

/**
 * The models whose id is itself a credential a client holds: the code, the opaque tokens, and the
 * session and interaction ids a browser carries in its cookies. Their rows are keyed by the id's
 * SHA-256 and keep no copy of it (every occurrence in the payload, `jti` and the interaction's
 * `returnTo`, is stored as ID_MARK and given back on `find`), so the store holds nothing a reader of
 * the database could present, as for our own access and session tokens. Not these: Grant (its id is
 * a reference other rows carry) and DeviceCode (found by its user code, which must stay readable).
 */
const HASHED_MODELS = new Set(['AuthorizationCode', 'AccessToken', 'RefreshToken', 'ClientCredentials', 'BackchannelAuthenticationRequest', 'PushedAuthorizationRequest', 'RegistrationAccessToken', 'InitialAccessToken', 'Session', 'Interaction']);

/** stands for the row's own id in a hashed model's payload; JSON keeps it escaped, and an id never holds it */
const ID_MARK = '\u0000';

/** the same value with `replace` applied to every string in it, at any depth */
function mapStrings(value: unknown, replace: (text: string) => string): unknown {
  if (typeof value === 'string') return replace(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, replace));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, replace)]));
  return value;
}

/** What a hashed model's row keeps of its payload: no copy of its id, nor of the session's cookie an interaction names. */
function sealPayload(model: string, id: string, payload: OidcPayload): OidcPayload {
  const sealed = mapStrings(payload, (text) => text.replaceAll(id, ID_MARK)) as OidcPayload;
  // an interaction names its session's cookie value for the application's use; oidc-provider never reads it
  if (model === 'Interaction' && sealed.session && typeof sealed.session === 'object') {
    const { cookie: _cookie, ...session } = sealed.session as Record<string, unknown>;
    sealed.session = session;
  }
  return sealed;
}

/**
 * One oidc-provider model (Session, Interaction, AuthorizationCode, AccessToken, RefreshToken, Grant,
 * ReplayDetection, ...) in oidc_store. An expired row is never answered; expired rows are swept now
 * and then on writes, so the table stays as small as the live protocol state.
 */
export class OidcStoreAdapter {
  private static writes = 0;

  private readonly hashed: boolean;

  constructor(
    private readonly db: Kysely<ReadDatabase>,
    private readonly model: string,
  ) {
    this.hashed = HASHED_MODELS.has(model);
  }

  /** the row's key: the id itself, or its SHA-256 for a credential */
  private keyOf(id: string): string {
    return this.hashed ? createHash('sha256').update(id).digest('base64url') : id;
  }

  async upsert(id: string, payload: OidcPayload, expiresIn?: number): Promise<void> {
    const stored = this.hashed ? sealPayload(this.model, id, payload) : payload;
    const row = {
      model: this.model,
      id: this.keyOf(id),
      payload: JSON.stringify(stored),
      grant_id: payload.grantId ?? null,
      account_id: typeof payload.accountId === 'string' ? payload.accountId : null,
      client_id: typeof payload.clientId === 'string' ? payload.clientId : null,
      uid: payload.uid ?? null,
      user_code: payload.userCode ?? null,
      expires_at: expiresIn ? nowSeconds() + expiresIn : null,
      consumed_at: null,
    };
    await this.db
      .insertInto('oidc_store')
      .values(row)
      .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet({ payload: row.payload, grant_id: row.grant_id, account_id: row.account_id, client_id: row.client_id, uid: row.uid, user_code: row.user_code, expires_at: row.expires_at }))
      .execute();
    OidcStoreAdapter.writes += 1;
    if (OidcStoreAdapter.writes % 200 === 0) await this.db.deleteFrom('oidc_store').where('expires_at', '<', nowSeconds()).execute();
  }

  async find(id: string): Promise<OidcPayload | undefined> {
    const payload = await this.first(this.db.selectFrom('oidc_store').select(['payload', 'expires_at', 'consumed_at']).where('model', '=', this.model).where('id', '=', this.keyOf(id)));
    return payload && this.hashed ? (mapStrings(payload, (text) => text.replaceAll(ID_MARK, id)) as OidcPayload) : payload;
  }

  /**
   * A session by its uid, for the provider's checks (an interaction's or a token's session still there,
   * same account and grant). Its id stays unknown here, so `jti` is left out: oidc-provider then draws a
   * new one, and it only reads such a session, never saves it.
   */
  async findByUid(uid: string): Promise<OidcPayload | undefined> {
    const payload = await this.first(this.db.selectFrom('oidc_store').select(['payload', 'expires_at', 'consumed_at']).where('model', '=', this.model).where('uid', '=', uid));
    if (!payload || !this.hashed) return payload;
    const { jti: _jti, ...rest } = payload;
    return rest;
  }

  async findByUserCode(userCode: string): Promise<OidcPayload | undefined> {
    return this.first(this.db.selectFrom('oidc_store').select(['payload', 'expires_at', 'consumed_at']).where('model', '=', this.model).where('user_code', '=', userCode));
  }

  async consume(id: string): Promise<void> {
    await this.db.updateTable('oidc_store').set({ consumed_at: nowSeconds() }).where('model', '=', this.model).where('id', '=', this.keyOf(id)).execute();
  }

  async destroy(id: string): Promise<void> {
    await this.db.deleteFrom('oidc_store').where('model', '=', this.model).where('id', '=', this.keyOf(id)).execute();
  }

  /** every model's rows of that grant: codes, access and refresh tokens, and the grant itself */
  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db.deleteFrom('oidc_store').where('grant_id', '=', grantId).execute();
  }

  /** Everything the provider holds for one account at one client: grants, and their codes and tokens (a revoked consent). */
  static async revokeAccountClient(db: Kysely<ReadDatabase>, accountId: string, clientId: string): Promise<void> {
    const grants = await db.selectFrom('oidc_store').select('id').where('model', '=', 'Grant').where('account_id', '=', accountId).where('client_id', '=', clientId).execute();
    const ids = grants.map((grant) => grant.id);
    if (!ids.length) return;
    await db.deleteFrom('oidc_store').where('grant_id', 'in', ids).execute();
    await db.deleteFrom('oidc_store').where('model', '=', 'Grant').where('id', 'in', ids).execute();
  }

  private async first(query: { executeTakeFirst(): Promise<{ payload: string; expires_at: number | null; consumed_at: number | null } | undefined> }): Promise<OidcPayload | undefined> {
    const row = await query.executeTakeFirst();
    if (!row) return undefined;
    if (row.expires_at !== null && Number(row.expires_at) <= nowSeconds()) return undefined;
    const payload = JSON.parse(row.payload) as OidcPayload;
    return row.consumed_at === null ? payload : { ...payload, consumed: Number(row.consumed_at) };
  }
}
