import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ACCOUNT_STATUS } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import type { Clock } from '../../../platform/runtime/clock';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import { hasSecondFactor, secondFactorDecider, secondFactorRequired, secondFactorStream } from '@rollcall/domain';
import { loadState } from '../../../platform/commands/handle-command';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { Grants } from '../../../platform/access/grants';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import type { SessionPrincipal } from '../../../platform/access/principal';
import { CredentialCache } from '../credential-cache';
import { hashToken } from '../../../platform/access/session-token';
import { loadGrants } from './load-grants';

/** Status 3, or a password older than the policy's maximum age in days. */
export function passwordChangeRequired(statusId: number, passwordChangedAt: string | null, maxAgeDays: number | null, now: Date): boolean {
  if (statusId === ACCOUNT_STATUS.passwordChangeRequired) return true;
  return maxAgeDays !== null && passwordChangedAt !== null && Date.parse(passwordChangedAt) + maxAgeDays * 86_400_000 <= now.getTime();
}

/**
 * Has the account's own expiry (`expires_at`: a date, or a date and time with an offset) passed? A date
 * alone ends at its start, UTC, as sign-in has always read it.
 */
export function accountExpired(expiresAt: string | null, now: Date): boolean {
  if (expiresAt === null) return false;
  const at = Date.parse(expiresAt);
  return Number.isNaN(at) ? expiresAt <= now.toISOString() : at <= now.getTime();
}

export class ResolveSessionQuery {
  constructor(readonly token: string) {}
}

/** A session counts only while it is open, unexpired, and its account is still allowed in (not disabled, not expired). */
@QueryHandler(ResolveSessionQuery)
export class ResolveSessionHandler implements IQueryHandler<ResolveSessionQuery, SessionPrincipal | null> {
  constructor(
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly cache: CredentialCache,
  ) {}

  /**
   * The policy requires a second factor and the account has none (docs/adr/0025): read from the
   * account's second-factor stream, the truth, only where the policy asks at all; cached with the
   * session and evicted when a factor is enrolled or removed (credential-cache.ts).
   */
  private async mustEnrolSecondFactor(accountId: string, policyId: string | null, grants: Grants): Promise<boolean> {
    if (!policyId) return false;
    const rule = await this.db.selectFrom('password_policy_second_factor_v1').select('requirement').where('policy_id', '=', policyId).executeTakeFirst();
    if (!secondFactorRequired(rule?.requirement, grants.everywhere.size > 0 || grants.within.size > 0)) return false;
    return !hasSecondFactor(await loadState(this.store, secondFactorDecider, secondFactorStream(accountId)));
  }

  async execute({ token }: ResolveSessionQuery): Promise<SessionPrincipal | null> {
    if (!token || token.length > 200) return null;
    const tokenHash = hashToken(token);
    const now = this.clock.now();
    const cached = this.cache.get(tokenHash, now.getTime());
    if (cached) return cached.principal.kind === 'session' ? cached.principal : null;
    const row = await this.db
      .selectFrom('sessions_v1')
      .innerJoin('accounts_v2', 'accounts_v2.id', 'sessions_v1.account_id')
      .leftJoin('password_policies_v2', 'password_policies_v2.id', 'accounts_v2.policy_id')
      .select([
        'sessions_v1.id as session_id',
        'sessions_v1.account_id',
        'sessions_v1.expires_at',
        'sessions_v1.ended_at',
        'accounts_v2.status_id',
        'accounts_v2.password_changed_at',
        'accounts_v2.expires_at as account_expires_at',
        'password_policies_v2.max_age',
        'accounts_v2.policy_id',
      ])
      .where('sessions_v1.token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!row || row.ended_at || row.expires_at <= now.toISOString()) return null;
    if (row.status_id === ACCOUNT_STATUS.disabled) return null;
    // an expired account's sessions end with it, not only its sign-ins
    // (docs/security.md, 'Sign-in: lockout, throttling, sessions')
    if (accountExpired(row.account_expires_at, now)) return null;
    const grants = await loadGrants(this.db, row.account_id);
    const principal: SessionPrincipal = {
      kind: 'session',
      accountId: row.account_id,
      sessionId: row.session_id,
      passwordChangeRequired: passwordChangeRequired(row.status_id, row.password_changed_at, row.max_age, now),
      secondFactorEnrolmentRequired: await this.mustEnrolSecondFactor(row.account_id, row.policy_id, grants),
      grants,
    };
    // cached no longer than the session or the account lasts, whichever ends first
    const accountEnds = row.account_expires_at === null ? NaN : Date.parse(row.account_expires_at);
    const ends = Number.isNaN(accountEnds) ? Date.parse(row.expires_at) : Math.min(Date.parse(row.expires_at), accountEnds);
    this.cache.set(tokenHash, { principal, restrictions: [], expiresAt: row.expires_at }, ends, now.getTime());
    return principal;
  }
}
