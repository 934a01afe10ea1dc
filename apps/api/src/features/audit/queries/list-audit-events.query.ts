import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TAuditEventFilter, TAuditEventPage } from '@rollcall/contracts';
import { accountStream, organizationStream, teamStream } from '@rollcall/domain';
import { type Kysely, sql } from 'kysely';
import { expandSubtrees } from '../../auth/queries/load-grants';
import { READ_DB } from '../../../platform/tokens';
import { parsePosition, type Position } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { auditEventOf } from '../readable-events';
import { loadNameBook } from '../history/load-name-book';

const UUID_GROUP_LENGTHS = [8, 4, 4, 4, 12];
const HEX = /^[0-9a-f]+$/i;

/**
 * The first UUID in a stream id: the entity it is about (`account-{id}`, `attendance-{id}-{day}`).
 * Read from the id's dash-separated parts rather than by an unanchored pattern, which recheck calls
 * polynomial on a long run of hex digits (linear-patterns.unit.spec.ts).
 */
function firstUuidIn(streamId: string): string | null {
  const parts = streamId.split('-');
  for (let start = 0; start + UUID_GROUP_LENGTHS.length <= parts.length; start++) {
    const groups = parts.slice(start, start + UUID_GROUP_LENGTHS.length);
    if (groups.every((group, index) => group.length === UUID_GROUP_LENGTHS[index] && HEX.test(group))) return groups.join('-');
  }
  return null;
}

export class ListAuditEventsQuery {
  /**
   * `limit` is not bounded here: the inputs cap what a client asks for (100), the export reads in
   * larger chunks. `before`: only events strictly older than this position.
   */
  constructor(
    readonly filter: TAuditEventFilter,
    readonly before: Position | null,
    readonly limit: number,
  ) {}
}

/** every character sorts below this one, so `[prefix, prefix + TOP)` is exactly the ids starting with prefix (byte order) */
const TOP = '\u{10FFFF}';

/** parses a cursor the input schema already checked */
export const cursorOf = (before: string | undefined): Position | null => (before ? parsePosition(before) : null);

/**
 * The event log, newest first, one keyset page: `limit` rows strictly before the cursor, and the
 * cursor of the next page (null when nothing older matches). Keyset, not offset: a page costs the same
 * at the end of a million events as at the start, and events recorded meanwhile never shift a page.
 */
@QueryHandler(ListAuditEventsQuery)
export class ListAuditEventsHandler implements IQueryHandler<ListAuditEventsQuery, TAuditEventPage> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ filter, before, limit }: ListAuditEventsQuery): Promise<TAuditEventPage> {
    let query = this.db.selectFrom('event_log_v1').selectAll();
    if (filter.stream) query = query.where('stream_id', '=', filter.stream);
    if (filter.stream_prefix) query = query.where('stream_id', '>=', filter.stream_prefix).where('stream_id', '<', filter.stream_prefix + TOP);
    if (filter.type?.length) query = query.where('event_type', 'in', filter.type);
    if (filter.actor) query = query.where('actor', '=', filter.actor);
    if (filter.correlation_id) query = query.where('correlation_id', '=', filter.correlation_id);
    if (filter.organization) {
      // a deleted organization has no subtree any more: its own stream still answers
      const subtree = (await expandSubtrees(this.db, [filter.organization])).get(filter.organization) ?? [filter.organization];
      query = query.where((eb) =>
        eb.or([
          eb('stream_id', 'in', subtree.map(organizationStream)),
          eb('stream_id', 'in', eb.selectFrom('teams_v1').select(sql<string>`${teamStream('')} || id`.as('stream')).where('organization_id', 'in', subtree)),
          eb('stream_id', 'in', eb.selectFrom('organization_members_v1').select(sql<string>`${accountStream('')} || account_id`.as('stream')).where('organization_id', 'in', subtree)),
        ]),
      );
    }
    if (filter.from) query = query.where('recorded_at', '>=', filter.from);
    if (filter.to) query = query.where('recorded_at', '<', filter.to);
    if (before) query = query.where((eb) => eb(eb.refTuple('position_commit', 'position_sequence'), '<', eb.tuple(before.commit, before.sequence)));
    const rows = await query.orderBy('position_commit', 'desc').orderBy('position_sequence', 'desc').limit(limit + 1).execute();
    const page = rows.slice(0, limit).map(auditEventOf);
    // the log is read with audit:read everywhere (audit.router.ts): every name may be shown
    const streamEntity = firstUuidIn;
    const ids = new Set<string>();
    for (const event of page) {
      if (event.actor) ids.add(event.actor);
      const entity = streamEntity(event.stream_id);
      if (entity) ids.add(entity);
    }
    const names = await loadNameBook(this.db, ids);
    for (const event of page) {
      const entity = streamEntity(event.stream_id);
      event.actor_name = names.get(event.actor) ?? null;
      event.stream_name = entity ? (names.get(entity) ?? null) : null;
    }
    return { data: page, next_before: rows.length > limit ? page[page.length - 1].position : null };
  }
}
