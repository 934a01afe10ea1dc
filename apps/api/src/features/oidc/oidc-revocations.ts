import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Kysely } from 'kysely';
import { ProjectionProgress } from '../../platform/projections/projection-progress';
import type { StoredEvent } from '../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../platform/read-db/read-database';
import { READ_DB } from '../../platform/tokens';

/** the provider's models a relying party presents: what an account's remediation ends */
const TOKEN_MODELS = ['AuthorizationCode', 'AccessToken', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest'];

/**
 * Events after which the account's earlier sign-ins at applications no longer count (docs/security.md,
 * 'OpenID Connect provider'), with the projection that carries them (each is acted on once).
 */
const ENDING_EVENTS: Record<string, ReadonlySet<string>> = {
  accounts_v2: new Set(['PasswordChanged', 'PasswordChangeRequired', 'AccountLocked', 'AccountStatusChanged', 'AccountDeleted']),
  second_factors_v1: new Set(['TotpEnrolled', 'TotpRemoved', 'PasskeyRegistered', 'PasskeyRemoved', 'SecondFactorsReset']),
};

/**
 * Deletes the account's codes, access and refresh tokens issued up to `at` (their `iat`, epoch seconds,
 * at or before that second) from oidc_store; its grants stay (a later sign-in reuses them, and a grant
 * without tokens gives nothing). Returns how many went.
 */
export async function revokeAccountTokens(db: Kysely<ReadDatabase>, accountId: string, at: Date): Promise<number> {
  const upTo = Math.floor(at.getTime() / 1000);
  const rows = await db.selectFrom('oidc_store').select(['model', 'id', 'payload']).where('account_id', '=', accountId).where('model', 'in', TOKEN_MODELS).execute();
  const issuedBefore = rows.filter((row) => {
    const iat = (JSON.parse(row.payload) as { iat?: unknown }).iat;
    return typeof iat !== 'number' || iat <= upTo;
  });
  for (const row of issuedBefore) await db.deleteFrom('oidc_store').where('model', '=', row.model).where('id', '=', row.id).execute();
  return issuedBefore.length;
}

/**
 * The applications signed in as the account now: those holding a live, unused access or refresh token
 * of it (as the own sessions page lists them, ListOwnSessions), by id.
 */
export async function signedInApplications(db: Kysely<ReadDatabase>, accountId: string, now: Date): Promise<string[]> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const rows = await db
    .selectFrom('oidc_store as t')
    .innerJoin('applications_v1 as a', 'a.id', 't.client_id')
    .select('t.client_id')
    .distinct()
    .where('t.account_id', '=', accountId)
    .where('t.model', 'in', ['AccessToken', 'RefreshToken'])
    .where((eb) => eb.or([eb('t.expires_at', 'is', null), eb('t.expires_at', '>', nowSeconds)]))
    .where('t.consumed_at', 'is', null)
    .execute();
  return rows.map((row) => row.client_id!);
}

/**
 * Ends the account's browser sessions at the provider (review R24c, G1): its `Session` rows, so a
 * browser still signed in at /oidc (a shared or stolen computer) gets `login_required` for
 * `prompt=none` and the login page otherwise, and the interactions bound to it (a sign-in in
 * progress with the account's session, or a login done and not yet resumed). For signing out all
 * other sessions, which writes no account event that `signInOutdated` could see. Returns how many went.
 */
export async function endAccountProviderSessions(db: Kysely<ReadDatabase>, accountId: string): Promise<number> {
  const sessions = await db.deleteFrom('oidc_store').where('model', '=', 'Session').where('account_id', '=', accountId).executeTakeFirst();
  const interactions = await db.selectFrom('oidc_store').select(['id', 'payload']).where('model', '=', 'Interaction').execute();
  const bound = interactions.filter((row) => {
    const payload = JSON.parse(row.payload) as { session?: { accountId?: unknown }; result?: { login?: { accountId?: unknown } } };
    return payload.session?.accountId === accountId || payload.result?.login?.accountId === accountId;
  });
  for (const row of bound) await db.deleteFrom('oidc_store').where('model', '=', 'Interaction').where('id', '=', row.id).execute();
  return Number(sessions.numDeletedRows ?? 0n) + bound.length;
}

/**
 * Ends what applications hold of an account when it is remediated (review R24b, F2): as this process
 * projects a password change (own or by an administrator), a forced change, a lock, a status change or
 * deletion, or a second factor enrolled, registered, removed or reset, the account's OpenID Connect
 * codes and tokens issued until then are deleted. The token endpoint's own check (`signInOutdated` in
 * oidc-provider.host.ts) refuses them too, so neither alone carries the rule. Signing out all other
 * sessions calls `revokeAccountTokens` and `endAccountProviderSessions` itself (SignOutOwnSessionsHandler):
 * it has no account event.
 * Idempotent, and harmless when several processes project (the same rows go once).
 */
@Injectable()
export class OidcRevocations implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('OidcRevocations');
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly progress: ProjectionProgress,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.progress.onAdvanced((projection, events) => {
      const ending = ENDING_EVENTS[projection];
      if (!ending) return;
      // the latest such event per account
      const latest = new Map<string, Date>();
      for (const event of events) if (ending.has(event.type)) latest.set(accountOf(event), new Date(event.metadata.occurredAt));
      for (const [accountId, at] of latest) {
        revokeAccountTokens(this.db, accountId, at).catch((error: unknown) => this.logger.error(`revoking the OpenID Connect tokens of ${accountId} failed: ${String(error)}`));
      }
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }
}

/** the account an account or second-factor event is about: its stream's id after the prefix */
const accountOf = (event: StoredEvent) => event.streamId.replace(/^(?:account|second-factors)-/, '');
