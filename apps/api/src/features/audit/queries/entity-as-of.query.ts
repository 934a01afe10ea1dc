import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TAsOfAnswer, TTimeTravelKind } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import { EVENT_STORE, READ_DB } from '../../../platform/tokens';
import { comparePositions, formatPosition, type EventStore, type Position } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { flattenState, idsIn, initialStateOf, statesAfterEach } from '../history/entity-history';
import { historyView } from '../history/history-scope';
import { loadNameBook } from '../history/load-name-book';
import type { Scope } from '../../../platform/access/grants';
import { readEntityStream } from './entity-history.query';
import { parsePosition } from '../../../platform/event-store/event-store.port';

/** `at` (ISO time, inclusive) or `position` (inclusive): the contracts require exactly one */
export class EntityAsOfQuery {
  constructor(
    readonly kind: TTimeTravelKind,
    readonly id: string,
    readonly moment: { at: string } | { position: Position },
    /** where the caller reads history (`audit:read`): organizations and roles outside are left out (history-scope.ts) */
    readonly scope: Scope = 'everywhere',
  ) {}
}

/**
 * Time travel: an account or organization as it was at a moment, its stream folded up to there by
 * its own decider (never the current read model). Names are today's (a renamed organization shows its
 * current title in the role list; its own title field shows the one it had).
 */
@QueryHandler(EntityAsOfQuery)
export class EntityAsOfHandler implements IQueryHandler<EntityAsOfQuery, TAsOfAnswer> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
  ) {}

  async execute({ kind, id, moment, scope }: EntityAsOfQuery): Promise<TAsOfAnswer> {
    const events = await readEntityStream(this.store, kind, id);
    const until = events.filter((event) =>
      'at' in moment ? new Date(event.metadata.occurredAt).toISOString() <= moment.at : comparePositions(event.position, moment.position) <= 0,
    );
    const view = await historyView(this.db, scope, kind, until);
    const state = view.state(until.length > 0 ? statesAfterEach(kind, until)[until.length - 1] : initialStateOf(kind));
    const names = await loadNameBook(this.db, idsIn(state));
    const status = (state as { status: string }).status;
    // the last change the caller may see: an event outside its scope does not show, not even by its position
    const last = until.filter((event) => view.shows(event)).at(-1);
    return {
      kind,
      id,
      existed: status !== 'none' && status !== 'deleted',
      status,
      version: last ? last.streamVersion : 0,
      position: last ? formatPosition(last.position) : null,
      recorded_at: last ? last.metadata.occurredAt : null,
      fields: [...flattenState(state, names)].filter(([field]) => field !== 'status').map(([field, value]) => ({ field, value })),
    };
  }
}

/** the contracts made sure exactly one of `at` and `position` is there, and well formed */
export function asOfQuery(kind: TTimeTravelKind, id: string, moment: { at?: string; position?: string }, scope: Scope): EntityAsOfQuery {
  const position = moment.position ? parsePosition(moment.position) : null;
  return new EntityAsOfQuery(kind, id, position ? { position } : { at: moment.at ?? '' }, scope);
}
