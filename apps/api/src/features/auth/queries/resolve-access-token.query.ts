import { setTimeout as sleep } from 'node:timers/promises';
import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ACCOUNT_STATUS, type SystemPermission } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import type { Clock } from '../../../platform/runtime/clock';
import { CLOCK, READ_DB } from '../../../platform/tokens';
import { isTransientPostgresError } from '../../../platform/event-store/postgres-connections';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { CredentialCache, type ResolvedCredential } from '../credential-cache';
import type { TokenPrincipal } from '../../../platform/access/principal';
import { restrictGrants } from '../../../platform/access/grants';
import { hashToken } from '../../../platform/access/session-token';
import { loadGrants } from './load-grants';

/**
 * PostgreSQL answers a read with a deadlock (40P01) or a serialization failure (40001) when it waited
 * for a table that a transaction holding another table of the same read locks exclusively, e.g. the
 * read-model swap of `POST projections/rebuild` dropping and replacing tables one after the other
 * while this join holds access_tokens_v1 and waits for accounts_v2. The read changed nothing: it is
 * run again (the swap has committed by then); what still fails after the last attempt is answered 503
 * `server.unavailable` by mapError, never 500.
 */
const READ_ATTEMPTS = 4;

export async function retryTransientRead<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await read();
    } catch (error) {
      if (attempt >= READ_ATTEMPTS || !isTransientPostgresError(error)) throw error;
      await sleep(10 * attempt);
    }
  }
}

export class ResolveAccessTokenQuery {
  constructor(readonly token: string) {}
}

/**
 * A live access token with its grant, while its account may still act (not disabled, not past the
 * account's expiry). Its own expiry and IP restrictions are checked on every request by the caller,
 * also for cached entries.
 */
@QueryHandler(ResolveAccessTokenQuery)
export class ResolveAccessTokenHandler implements IQueryHandler<ResolveAccessTokenQuery, ResolvedCredential<TokenPrincipal> | null> {
  constructor(
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly cache: CredentialCache,
  ) {}

  async execute({ token }: ResolveAccessTokenQuery): Promise<ResolvedCredential<TokenPrincipal> | null> {
    if (!token || token.length > 200) return null;
    const tokenHash = hashToken(token);
    const now = this.clock.now();
    const cached = this.cache.get(tokenHash, now.getTime());
    if (cached) return cached.principal.kind === 'token' ? (cached as ResolvedCredential<TokenPrincipal>) : null;
    const found = await retryTransientRead(() => this.read(tokenHash, now));
    if (!found) return null;
    const { row, grants: held } = found;
    const permissions = new Set(JSON.parse(row.permissions) as SystemPermission[]);
    const grants = restrictGrants(held, permissions);
    const credential: ResolvedCredential<TokenPrincipal> = {
      principal: { kind: 'token', accountId: row.account_id, tokenId: row.id, permissions, grants, passwordChangeRequired: false },
      restrictions: JSON.parse(row.restrictions) as string[],
      expiresAt: row.expires_at,
    };
    const accountExpiry = row.account_expires_at === null ? null : Date.parse(row.account_expires_at);
    this.cache.set(tokenHash, credential, accountExpiry, now.getTime());
    return credential;
  }

  /** the token's row and its account's grants: only reads, so a whole attempt can run again */
  private async read(tokenHash: string, now: Date) {
    const row = await this.db
      .selectFrom('access_tokens_v1')
      .innerJoin('accounts_v2', 'accounts_v2.id', 'access_tokens_v1.account_id')
      .select(['access_tokens_v1.id', 'access_tokens_v1.account_id', 'access_tokens_v1.permissions', 'access_tokens_v1.restrictions', 'access_tokens_v1.expires_at', 'accounts_v2.status_id', 'accounts_v2.expires_at as account_expires_at'])
      .where('access_tokens_v1.token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!row || row.status_id === ACCOUNT_STATUS.disabled) return null;
    if (row.account_expires_at !== null && Date.parse(row.account_expires_at) <= now.getTime()) return null;
    return { row, grants: await loadGrants(this.db, row.account_id) };
  }
}
