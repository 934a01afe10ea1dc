import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TOwnSession } from '@rollcall/contracts';
import { sessionStream } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import type { Clock } from '../../../platform/runtime/clock';
import { CLOCK, READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
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
 * (session_activity, noted when it uses this page).
 */
@QueryHandler(ListOwnSessionsQuery)
export class ListOwnSessionsHandler implements IQueryHandler<ListOwnSessionsQuery, TOwnSession[]> {
  constructor(
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, currentSessionId }: ListOwnSessionsQuery): Promise<TOwnSession[]> {
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
    if (!sessions.length) return [];
    const started = await this.db
      .selectFrom('event_log_v1')
      .select(['stream_id', 'source_ip'])
      .where('stream_id', 'in', sessions.map((session) => sessionStream(session.id)))
      .where('event_type', '=', 'SessionStarted')
      .execute();
    const signedInFrom = new Map(started.map((row) => [row.stream_id, row.source_ip]));
    return sessions.map((session) => ({
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
  }
}
