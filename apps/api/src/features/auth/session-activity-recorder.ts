import type { IncomingMessage } from 'node:http';
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../platform/config/app-config';
import type { SessionPrincipal } from '../../platform/access/principal';
import { clientAddressOf } from '../../platform/http/client-address';
import { credentialFrom } from '../../platform/http/request-context.factory';
import type { Clock } from '../../platform/runtime/clock';
import { APP_CONFIG, CLOCK, READ_DB } from '../../platform/tokens';
import type { ReadDatabase } from '../../platform/read-db/read-database';

/**
 * session_activity: when and from where each session was last seen, and with which client.
 * Observed, not a business fact: no event carries a user agent, so the table is kept beside the
 * read models like access_token_usage and never rebuilt (SessionActivityRecorder).
 */
export interface SessionActivityTable {
  session_id: string;
  account_id: string;
  /** the User-Agent header, cut to USER_AGENT_MAX */
  user_agent: string | null;
  /** how the session's token came: 'cookie' (a browser's console) or 'bearer' (a program) */
  via: string;
  address: string | null;
  last_seen_at: string;
}

declare module '../../platform/read-db/read-database' {
  interface ReadDatabase {
    session_activity: SessionActivityTable;
  }
}

/** a user agent is kept to this many characters (the list of one's own sessions summarises it) */
export const USER_AGENT_MAX = 512;
/** the same client at the same address is noted again only this much later: the list says 'last seen', not every call */
const NOTE_EVERY_MS = 30_000;
const ROWS_PER_STATEMENT = 500;
const TRACKED_MAX = 10_000;

type SessionActivityRow = SessionActivityTable;

/**
 * 'Last seen' of every session, on every surface that authenticates it (REST v1, v2 and /api through
 * the guard, tRPC over HTTP, the WebSocket's upgrade): the Authenticator notes each call here, in
 * memory; the notes are written as one batched upsert per ROLLCALL_TOKEN_USAGE_FLUSH_MS, at shutdown,
 * and before the list of one's own sessions is read (flush()). So a hot path (a list of accounts
 * paged through) costs no write per request: per session at most one row per interval, and only when
 * half a minute passed or its client or address changed. A later time never loses to an earlier one,
 * so several API processes may flush in any order; a crash loses at most one interval of 'last seen'.
 * Door readers are no sessions: the scan path never comes here.
 */
@Injectable()
export class SessionActivityRecorder implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('SessionActivity');
  /** per session: when it was last noted, and with which client, channel and address */
  private readonly noted = new Map<string, { at: number; seen: string }>();
  private pending = new Map<string, SessionActivityRow>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
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
    this.timer = setInterval(() => void this.flush(), this.config.tokenUsageFlushMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  /** a session's call: its User-Agent, how its token came and its address, as the request says */
  noteRequest(principal: SessionPrincipal, request: IncomingMessage): void {
    const userAgent = request.headers['user-agent'];
    this.note(principal, typeof userAgent === 'string' ? userAgent.slice(0, USER_AGENT_MAX) : null, credentialFrom(request)?.via ?? 'cookie', clientAddressOf(request));
  }

  private note(principal: SessionPrincipal, userAgent: string | null, via: 'bearer' | 'cookie', address: string | null): void {
    const now = this.clock.now();
    const seen = `${via} ${address ?? ''} ${userAgent ?? ''}`;
    const last = this.noted.get(principal.sessionId);
    // a client or an address that changed is noted at once; the same one again only to move 'last seen'
    if (last !== undefined && last.seen === seen && now.getTime() - last.at < NOTE_EVERY_MS) return;
    if (this.noted.size >= TRACKED_MAX) this.noted.clear();
    this.noted.set(principal.sessionId, { at: now.getTime(), seen });
    this.pending.set(principal.sessionId, { session_id: principal.sessionId, account_id: principal.accountId, user_agent: userAgent, via, address, last_seen_at: now.toISOString() });
  }

  /** writes what was noted since the last flush; flushes never overlap */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (!this.pending.size) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    try {
      for (let start = 0; start < batch.length; start += ROWS_PER_STATEMENT) {
        await this.db
          .insertInto('session_activity')
          .values(batch.slice(start, start + ROWS_PER_STATEMENT))
          .onConflict((oc) =>
            oc
              .column('session_id')
              .doUpdateSet({
                user_agent: (eb) => eb.ref('excluded.user_agent'),
                via: (eb) => eb.ref('excluded.via'),
                address: (eb) => eb.ref('excluded.address'),
                last_seen_at: (eb) => eb.ref('excluded.last_seen_at'),
              })
              .where('excluded.last_seen_at', '>=', (eb) => eb.ref('session_activity.last_seen_at')),
          )
          .execute();
      }
    } catch (error) {
      // 'last seen' is a convenience: keep the notes for the next interval unless newer ones arrived meanwhile
      for (const row of batch) if (!this.pending.has(row.session_id)) this.pending.set(row.session_id, row);
      this.logger.warn(`could not write sessions' last-seen times: ${(error as Error).message}`);
    }
  }
}
