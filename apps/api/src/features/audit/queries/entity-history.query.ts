import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { THistoryEntry, THistoryKind, THistoryPage } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import type { Kysely, Selectable } from 'kysely';
import { EVENT_STORE, READ_DB } from '../../../platform/tokens';
import { comparePositions, type EventStore, type Position, type StoredEvent } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import type { EventLogTable } from '../audit.tables';
import { changesBetween, describeEvent, flattenState, idsIn, initialStateOf, statesAfterEach, streamOfEntity } from '../history/entity-history';
import { historyView } from '../history/history-scope';
import { loadNameBook } from '../history/load-name-book';
import { eventsAboutAccount } from '../history/person-events';
import { attendanceTimeZone } from '../../attendance/attendance-time-zone';
import type { Scope } from '../../../platform/access/grants';
import { toEventLogRow } from '../projections/event-log.projection';
import { auditEventOf, readableEvents } from '../readable-events';

export class EntityHistoryQuery {
  constructor(
    readonly kind: THistoryKind,
    readonly id: string,
    /** only events strictly older than this position */
    readonly before: Position | null,
    readonly limit: number,
    /** where the caller reads history (`audit:read`): what lies outside is left out (history-scope.ts) */
    readonly scope: Scope = 'everywhere',
  ) {}
}

/** the stream of an entity that never existed: a 404, like the entity's own routes */
export const noHistory = (kind: THistoryKind) => new DomainError('resource.not_found', `There is no ${kind} with this id`);

/** an entity's stream from the event store (not the log's copy): what the decisions saw, as it may be shown */
export async function readEntityStream(store: EventStore, kind: THistoryKind, id: string): Promise<StoredEvent[]> {
  const events = await store.readStream(streamOfEntity(kind, id));
  if (events.length === 0) throw noHistory(kind);
  // redacted before anything folds or shows them: no credential reaches a history or a time travel
  return readableEvents(events);
}

/**
 * One entity's history, newest first, one page: each event with what it did in plain words and the
 * fields of the entity it changed (its state folded before and after it). The whole stream is folded
 * for every page: an entity's stream is short next to the log (an account's sign-ins are its longest
 * part), and a diff needs the state before the page's oldest event anyway.
 */
@QueryHandler(EntityHistoryQuery)
export class EntityHistoryHandler implements IQueryHandler<EntityHistoryQuery, THistoryPage> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
  ) {}

  async execute({ kind, id, before, limit, scope }: EntityHistoryQuery): Promise<THistoryPage> {
    const stream = await readEntityStream(this.store, kind, id);
    // a person's history also holds their attendance, cards and calendar (person-events.ts), through the same door
    const related = kind === 'account' ? readableEvents(await eventsAboutAccount(this.db, id)) : [];
    const timeZone = kind === 'account' ? ((await attendanceTimeZone(this.db, id)) ?? 'UTC') : 'UTC';
    // folded whole (the decider needs every event), shown only as far as the caller's scope goes
    const folded = statesAfterEach(kind, stream);
    const view = await historyView(this.db, scope, kind, [...stream, ...related]);
    const events = stream.map((event) => view.event(event));
    const states = folded.map((state) => view.state(state));
    // one timeline by global position: the entity's own events (index into its stream) and the related ones (no fields of the entity change)
    const timeline = [...stream.map((event, index) => ({ event, index })), ...related.map((event) => ({ event, index: -1 }))].sort((left, right) => comparePositions(left.event.position, right.event.position));
    // the page: newest first, strictly older than the cursor
    const picked: Array<{ event: StoredEvent; index: number }> = [];
    for (let at = timeline.length - 1; at >= 0 && picked.length <= limit; at -= 1) {
      const item = timeline[at];
      if ((item.index < 0 || view.shows(item.event)) && (!before || comparePositions(item.event.position, before) < 0)) picked.push({ event: item.index < 0 ? view.event(item.event) : events[item.index], index: item.index });
    }
    const page = picked.slice(0, limit);
    const ids = new Set<string>();
    for (const { event, index } of page) {
      idsIn(event.data, ids);
      if (index >= 0) {
        idsIn(states[index], ids);
        idsIn(index > 0 ? states[index - 1] : null, ids);
      }
      if (event.metadata.actor) ids.add(event.metadata.actor);
    }
    const names = await loadNameBook(this.db, ids);
    const data = page.map(({ event, index }): THistoryEntry => {
      const { actor, actorKind, sourceIp } = event.metadata;
      const previous = index < 0 ? null : flattenState(index > 0 ? states[index - 1] : view.state(initialStateOf(kind)), names);
      return {
        ...auditEventOf(toEventLogRow(event) as Selectable<EventLogTable>),
        summary: describeEvent({ type: event.type, data: event.data, actor, actorKind, sourceIp }, names, timeZone),
        changes: previous === null ? [] : changesBetween(previous, flattenState(states[index], names)),
      };
    });
    return { data, next_before: picked.length > limit ? data[data.length - 1].position : null, names: Object.fromEntries(names), time_zone: timeZone };
  }
}
