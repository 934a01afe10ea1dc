import { createHash, timingSafeEqual } from 'node:crypto';
import { verify as argon2Verify } from '@node-rs/argon2';
import type { Kysely } from 'kysely';
import type { ReadDatabase } from '../../platform/read-db/read-database';
import { OPENID_SCOPES } from './oidc-scopes';

/**
 * The provider's Client model reads the applications read model (docs/adr/0014, 'Adapter'): one
 * client per live application, so a deleted or unknown application is `invalid_client` at once. An
 * application with no grant type signs nobody in until configured: it is no client either.
 *
 * `client_secret` carries the secret's hash, never the clear secret (which nobody keeps);
 * `compareClientSecret` (patched in oidc-provider.host.ts) hashes what the relying party presents.
 * Because the "secret" the provider holds is a hash, nothing may use it as a key: HS* signing and
 * client_secret_jwt are not offered.
 */
export class ApplicationClientAdapter {
  /** require_pkce per client id, as last read (pkce.required asks synchronously) */
  readonly requirePkce = new Map<string, boolean>();

  constructor(private readonly db: Kysely<ReadDatabase>) {}

  async find(id: string): Promise<Record<string, unknown> | undefined> {
    const row = await this.db.selectFrom('applications_v1').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const grantTypes = JSON.parse(row.grant_types) as string[];
    if (!grantTypes.length) return undefined;
    this.requirePkce.set(row.id, row.client_type === 'public' || Boolean(row.require_pkce));
    const confidential = row.client_type !== 'public';
    const offline = grantTypes.includes('refresh_token');
    return {
      client_id: row.id,
      client_name: row.title,
      ...(confidential
        ? // a confidential client whose secret was never issued has a value no presented secret hashes to
          { token_endpoint_auth_method: 'client_secret_basic', client_secret: row.secret_hash ?? `!never-issued:${row.id}` }
        : { token_endpoint_auth_method: 'none' }),
      grant_types: grantTypes,
      response_types: grantTypes.includes('authorization_code') ? ['code'] : [],
      redirect_uris: JSON.parse(row.redirect_uris) as string[],
      post_logout_redirect_uris: JSON.parse(row.post_logout_redirect_uris) as string[],
      scope: OPENID_SCOPES.filter((scope) => scope !== 'offline_access' || offline).join(' '),
      id_token_signed_response_alg: 'RS256',
    };
  }

  // the Client model is read-only here: applications change through their own commands
  async upsert(): Promise<void> {}
  async destroy(): Promise<void> {}
  async consume(): Promise<void> {}
  async revokeByGrantId(): Promise<void> {}
  async findByUid(): Promise<undefined> {
    return undefined;
  }
  async findByUserCode(): Promise<undefined> {
    return undefined;
  }
}

/** The presented secret against the stored SHA-256 (hex), in constant time; an argon2 PHC string is verified as such. */
export async function clientSecretMatches(stored: string | undefined, presented: unknown): Promise<boolean> {
  if (typeof stored !== 'string' || typeof presented !== 'string' || !presented) return false;
  if (stored.startsWith('$argon2')) return argon2Verify(stored, presented).catch(() => false);
  if (!/^[0-9a-f]{64}$/.test(stored)) return false;
  const expected = Buffer.from(stored, 'hex');
  const actual = createHash('sha256').update(presented).digest();
  return timingSafeEqual(expected, actual);
}
