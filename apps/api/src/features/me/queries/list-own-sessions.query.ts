import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TOwnSession } from '@rollcall/contracts';
import { sessionStream } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import type { Clock } from '../../../platform/runtime/clock';
import { CLOCK, READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { SessionActivityRecorder } from '../../auth/session-activity-recorder';
import { isBrowser, summariseUserAgent } from '../user-agent-summary';

export class ListOwnSessionsQuery {
  constructor(
    /** the signed-in account: the only one whose sessions are read */
    readonly accountId: string,
    /** the session asking, marked `current` */
    readonly currentSessionId: string | null,
  ) {}
}

/**
 * The account's open sessions, newest first: from sessions_v1 (started, expires, ended), the address
 * each signed in from (its SessionStarted in the event log) and what it is and when it was last seen
 * (session_activity, noted by the auth feature on every call of the session, on every surface).
 */
@QueryHandler(ListOwnSessionsQuery)
export class ListOwnSessionsHandler implements IQueryHandler<ListOwnSessionsQuery, TOwnSession[]> {
  constructor(
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly activity: SessionActivityRecorder,
  ) {}

  async execute({ accountId, currentSessionId }: ListOwnSessionsQuery): Promise<TOwnSession[]> {
    // what this process noted since its last batch: the list shows the calls just made, written at once
    await this.activity.flush();
    const now = this.clock.now().toISOString();
    const sessions = await this.db
      .selectFrom('sessions_v1 as s')
      .leftJoin('session_activity as a', 'a.session_id', 's.id')
      .select(['s.id', 's.started_at', 's.expires_at', 'a.user_agent', 'a.via', 'a.address', 'a.last_seen_at'])
      .where('s.account_id', '=', accountId)
      .where('s.ended_at', 'is', null)
      .where('s.expires_at', '>', now)
      .orderBy('s.started_at', 'desc')
      .orderBy('s.id')
      .limit(200)
      .execute();
    const applications = await this.applicationSessions(accountId);
    if (!sessions.length) return applications;
    const started = await this.db
      .selectFrom('event_log_v1')
      .select(['stream_id', 'source_ip'])
      .where('stream_id', 'in', sessions.map((session) => sessionStream(session.id)))
      .where('event_type', '=', 'SessionStarted')
      .execute();
    const signedInFrom = new Map(started.map((row) => [row.stream_id, row.source_ip]));
    const own: TOwnSession[] = sessions.map((session) => ({
      id: session.id,
      current: session.id === currentSessionId,
      kind: session.last_seen_at === null ? 'unknown' : session.via === 'bearer' || !isBrowser(session.user_agent) ? 'api' : 'browser',
      client: summariseUserAgent(session.user_agent),
      started_at: session.started_at,
      expires_at: session.expires_at,
      signed_in_from: signedInFrom.get(sessionStream(session.id)) ?? null,
      last_seen_at: session.last_seen_at,
      last_seen_from: session.address,
    }));
    return [...own, ...applications];
  }

  /**
   * The applications signed in as the account through OpenID Connect: those holding a live access or
   * refresh token of it in the provider's store (oidc_store), one entry each, signed in when its first
   * live token was issued and last seen when its latest was. Revoking one is revoking its consent.
   */
  private async applicationSessions(accountId: string): Promise<TOwnSession[]> {
    const nowSeconds = Math.floor(this.clock.now().getTime() / 1000);
    const tokens = await this.db
      .selectFrom('oidc_store as t')
      .innerJoin('applications_v1 as a', 'a.id', 't.client_id')
      .select(['t.client_id', 't.payload', 't.expires_at', 'a.title'])
      .where('t.account_id', '=', accountId)
      .where('t.model', 'in', ['AccessToken', 'RefreshToken'])
      .where((eb) => eb.or([eb('t.expires_at', 'is', null), eb('t.expires_at', '>', nowSeconds)]))
      .where('t.consumed_at', 'is', null)
      .limit(1000)
      .execute();
    const byApplication = new Map<string, { title: string; first: number; last: number; expires: number | null }>();
    for (const token of tokens) {
      const issued = issuedAt(token.payload) ?? nowSeconds;
      const expires = token.expires_at === null ? null : Number(token.expires_at);
      const seen = byApplication.get(token.client_id!);
      if (!seen) byApplication.set(token.client_id!, { title: token.title, first: issued, last: issued, expires });
      else {
        seen.first = Math.min(seen.first, issued);
        seen.last = Math.max(seen.last, issued);
        seen.expires = seen.expires === null || expires === null ? null : Math.max(seen.expires, expires);
      }
    }
    const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
    return [...byApplication]
      .sort(([, left], [, right]) => right.last - left.last)
      .map(([id, seen]) => ({
        id,
        current: false,
        kind: 'application' as const,
        client: seen.title,
        started_at: iso(seen.first),
        // a refresh token without an end: the application stays signed in until its access is revoked
        expires_at: seen.expires === null ? iso(nowSeconds + 365 * 86_400) : iso(seen.expires),
        signed_in_from: null,
        last_seen_at: iso(seen.last),
        last_seen_from: null,
      }));
  }
}

/** a token payload's `iat` (seconds), when it has one */
function issuedAt(payload: string): number | null {
  try {
    const iat = (JSON.parse(payload) as { iat?: unknown }).iat;
    return typeof iat === 'number' && Number.isFinite(iat) ? iat : null;
  } catch {
    return null;
  }
}
