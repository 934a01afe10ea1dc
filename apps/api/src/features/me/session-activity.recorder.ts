import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { Kysely } from 'kysely';
import type { Clock } from '../../platform/runtime/clock';
import { CLOCK, READ_DB } from '../../platform/tokens';
import type { ReadDatabase } from '../../platform/read-db/read-database';
import type { SessionPrincipal } from '../../platform/access/principal';
import { USER_AGENT_MAX } from './user-agent-summary';

export interface SessionClient {
  userAgent: string | null;
  via: 'bearer' | 'cookie' | null;
}

/** a session's activity is written at most this often: the list says 'last seen', not every call */
const NOTE_EVERY_MS = 30_000;

/**
 * Notes which client a session is and when it was last seen, each time it calls the page of its own
 * (me.* and /api/v2/me). A write per session per half minute at most; a lost write only makes
 * 'last seen' older. The sessions' sign-in address comes from their SessionStarted event instead.
 */
@Injectable()
export class SessionActivityRecorder implements OnModuleInit {
  private readonly logger = new Logger('SessionActivity');
  /** per session: when it was last written and with which client, address and channel */
  private readonly noted = new Map<string, { at: number; seen: string }>();

  constructor(
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.db.schema
      .createTable('session_activity')
      .ifNotExists()
      .addColumn('session_id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('user_agent', 'text')
      .addColumn('via', 'text', (c) => c.notNull())
      .addColumn('address', 'text')
      .addColumn('last_seen_at', 'text', (c) => c.notNull())
      .execute();
    await this.db.schema.createIndex('session_activity_account').ifNotExists().on('session_activity').column('account_id').execute();
  }

  /** `client`: the request's User-Agent and how its credential came (a tRPC call's ctx.client, a REST request's headers) */
  async note(principal: SessionPrincipal, client: SessionClient | undefined, address: string | null): Promise<void> {
    const now = this.clock.now();
    const seen = JSON.stringify([client?.userAgent ?? null, client?.via ?? null, address]);
    const last = this.noted.get(principal.sessionId);
    // a client or an address that changed is written at once; the same one again only to move 'last seen'
    if (last !== undefined && last.seen === seen && now.getTime() - last.at < NOTE_EVERY_MS) return;
    if (this.noted.size >= 10_000) this.noted.clear();
    this.noted.set(principal.sessionId, { at: now.getTime(), seen });
    const row = {
      session_id: principal.sessionId,
      account_id: principal.accountId,
      user_agent: client?.userAgent ? client.userAgent.slice(0, USER_AGENT_MAX) : null,
      via: client?.via ?? 'cookie',
      address,
      last_seen_at: now.toISOString(),
    };
    try {
      await this.db
        .insertInto('session_activity')
        .values(row)
        .onConflict((oc) => oc.column('session_id').doUpdateSet({ user_agent: row.user_agent, via: row.via, address: row.address, last_seen_at: row.last_seen_at }))
        .execute();
    } catch (error) {
      // 'last seen' is a convenience: a busy or lost database never fails the call that noted it
      this.logger.warn(`could not note session activity: ${(error as Error).message}`);
    }
  }
}
