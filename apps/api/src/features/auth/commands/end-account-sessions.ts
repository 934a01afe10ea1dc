import { Inject, Injectable } from '@nestjs/common';
import { accountStream, sessionDecider, sessionStream } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { handleCommandRetrying } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { AppConfig } from '../../../platform/config/app-config';
import { APP_CONFIG, CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import { comparePositions, type EventStore, type Position } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

const CHUNK = 500;

/**
 * Ends the open sessions of an account, all of them or all but one (the session that changed its
 * own password): a new password ends every session opened with the old one (ASVS 3.3.3). Each
 * session's SessionEnded evicts it from the credential cache that HTTP and the WebSocket share.
 *
 * Which sessions are open is read from the account's own stream (every sign-in appends
 * AccountSignedIn with its session id), not only from the sessions read model, so a session whose
 * start the read model has not projected yet is ended too. A sign-in whose password was checked
 * against the old hash cannot record itself after the change (RecordSignIn carries the hash it
 * verified), so no session of the old password is left behind.
 */
@Injectable()
export class EndAccountSessions {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The position of the last SessionEnded appended, or null when no session was open. */
  async endAll(accountId: string, keepSessionId: string | null, reason: 'revoked', context: RequestContext): Promise<Position | null> {
    const now = this.clock.now();
    const nowIso = now.toISOString();
    // sessions the current setting may still hold open, from the account's stream (the truth) ...
    const since = new Date(now.getTime() - this.config.sessionHours * 3_600_000).toISOString();
    const candidates = new Set<string>();
    for (const event of await this.store.readStream(accountStream(accountId))) {
      const data = event.data as { sessionId?: string; at?: string };
      if (event.type === 'AccountSignedIn' && data.sessionId && (data.at ?? '') >= since) candidates.add(data.sessionId);
    }
    // ... and those the read model knows are open (started under a longer session setting)
    const open = await this.db.selectFrom('sessions_v1').select('id').where('account_id', '=', accountId).where('ended_at', 'is', null).where('expires_at', '>', nowIso).execute();
    for (const row of open) candidates.add(row.id);
    if (keepSessionId) candidates.delete(keepSessionId);
    // the read model says which already ended or expired; one it does not know yet is ended to be sure
    const ids = [...candidates];
    const finished = new Set<string>();
    for (let start = 0; start < ids.length; start += CHUNK) {
      const rows = await this.db
        .selectFrom('sessions_v1')
        .select(['id', 'ended_at', 'expires_at'])
        .where('id', 'in', ids.slice(start, start + CHUNK))
        .execute();
      for (const row of rows) if (row.ended_at !== null || row.expires_at <= nowIso) finished.add(row.id);
    }
    let last: Position | null = null;
    for (const sessionId of ids) {
      if (finished.has(sessionId)) continue;
      const result = await handleCommandRetrying(this.store, this.clock, sessionDecider, sessionStream(sessionId), { type: 'EndSession', data: { endedAt: nowIso, reason } }, context);
      if (result.events.length && (!last || comparePositions(result.position, last) > 0)) last = result.position;
    }
    return last;
  }
}
