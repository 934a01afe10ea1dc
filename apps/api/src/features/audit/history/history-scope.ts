import type { THistoryKind } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import type { Scope } from '../../../platform/access/grants';
import { accountsWithin, actorsWithin } from '../../../platform/access/scope-filters';
import type { StoredEvent } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

/**
 * What an entity's history and time travel show an organization administrator (docs/adr/0011,
 * 'History stays inside the subtree'): only as far as its `audit:read` scope goes.
 * - an account: its membership and roles in organizations outside the scope are left out (the
 *   events, and the organizations and roles in every state shown); an organization outside the
 *   scope named elsewhere (where the account was created) reads as none;
 * - a team: only the members inside the scope (their joining and leaving, and the member list of
 *   every state shown);
 * - every event shown: an actor outside the scope (an account, or a token of one, none of whose
 *   organizations is inside it) is 'someone outside your scope', without id or address.
 * The super administrator (scope everywhere) sees everything as it is.
 */
export interface HistoryView {
  /** whether the event is shown at all */
  shows(event: StoredEvent): boolean;
  /** the event as it may be shown: organization ids and actors outside the scope taken out */
  event(event: StoredEvent): StoredEvent;
  /** a folded state as it may be shown */
  state(state: unknown): unknown;
}

/** what an actor outside the caller's scope reads as (entity-history.ts' `actorName`) */
export const OUTSIDE_SCOPE_ACTOR_KIND = 'outside_scope';

const EVERYTHING: HistoryView = { shows: () => true, event: (event) => event, state: (state) => state };

/** the account events that are about one organization: left out when it lies outside the scope */
const ORGANIZATION_EVENTS = new Set(['AccountJoinedOrganization', 'AccountLeftOrganization', 'RoleGrantedToAccount', 'RoleRevokedFromAccount']);
/** the team events that are about one member: left out when the member lies outside the scope */
const MEMBER_EVENTS = new Set(['AccountAddedToTeam', 'AccountRemovedFromTeam']);

type Data = Record<string, unknown>;
const dataOf = (event: StoredEvent): Data => (event.data && typeof event.data === 'object' ? (event.data as Data) : {});
const isRecord = (value: unknown): value is Data => value !== null && typeof value === 'object' && !Array.isArray(value);

export async function historyView(db: Kysely<ReadDatabase>, scope: Scope, kind: THistoryKind, events: readonly StoredEvent[]): Promise<HistoryView> {
  if (scope === 'everywhere') return EVERYTHING;
  const visibleActors = await visibleActorsOf(db, scope, events);
  const maskActor = (event: StoredEvent): StoredEvent => {
    const { actor, actorKind } = event.metadata;
    if ((actorKind !== 'account' && actorKind !== 'token') || visibleActors.has(actor)) return event;
    return { ...event, metadata: { ...event.metadata, actor: '', actorKind: OUTSIDE_SCOPE_ACTOR_KIND as never, sourceIp: null } };
  };
  const inOrganizations = (id: unknown) => typeof id === 'string' && scope.has(id);

  if (kind === 'account') {
    return {
      shows: (event) => !ORGANIZATION_EVENTS.has(event.type) || inOrganizations(dataOf(event).organizationId),
      event: (event) => {
        const data = dataOf(event);
        const outside = typeof data.organizationId === 'string' && !inOrganizations(data.organizationId);
        return maskActor(outside ? { ...event, data: { ...data, organizationId: null } } : event);
      },
      state: (state) => {
        if (!isRecord(state) || !Array.isArray(state.organizationIds)) return state;
        const roles = isRecord(state.rolesByOrganization) ? state.rolesByOrganization : {};
        return {
          ...state,
          organizationIds: state.organizationIds.filter(inOrganizations),
          rolesByOrganization: Object.fromEntries(Object.entries(roles).filter(([organizationId]) => inOrganizations(organizationId))),
        };
      },
    };
  }

  if (kind === 'team') {
    const memberIds = new Set<string>();
    for (const event of events) if (MEMBER_EVENTS.has(event.type) && typeof dataOf(event).accountId === 'string') memberIds.add(dataOf(event).accountId as string);
    const visibleMembers = await accountsInScope(db, scope, [...memberIds]);
    return {
      shows: (event) => !MEMBER_EVENTS.has(event.type) || visibleMembers.has(dataOf(event).accountId as string),
      event: maskActor,
      state: (state) => (isRecord(state) && Array.isArray(state.memberIds) ? { ...state, memberIds: state.memberIds.filter((id) => visibleMembers.has(id as string)) } : state),
    };
  }

  return { ...EVERYTHING, event: maskActor };
}

/** the ids among `ids` of accounts the scope may read (accountsWithin: a member of an organization inside it, no super administrator) */
async function accountsInScope(db: Kysely<ReadDatabase>, scope: Scope, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const inScope = accountsWithin(scope, 'a.id');
  const rows = await db
    .selectFrom('accounts_v2 as a')
    .select('a.id')
    .where('a.id', 'in', ids)
    .$if(inScope !== null, (query) => query.where(inScope!))
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** the actors (account ids, token ids) of the events who act from inside the scope, or from above it (a super administrator) */
async function visibleActorsOf(db: Kysely<ReadDatabase>, scope: Scope, events: readonly StoredEvent[]): Promise<Set<string>> {
  const accounts = new Set<string>();
  const tokens = new Set<string>();
  for (const { metadata } of events) {
    if (metadata.actorKind === 'account' && metadata.actor) accounts.add(metadata.actor);
    if (metadata.actorKind === 'token' && metadata.actor) tokens.add(metadata.actor);
  }
  const visible = new Set<string>();
  if (scope === 'everywhere') return visible;
  if (accounts.size > 0) {
    const rows = await db.selectFrom('accounts_v2 as a').select('a.id').where('a.id', 'in', [...accounts]).where(actorsWithin(scope, 'a.id')).execute();
    for (const row of rows) visible.add(row.id);
  }
  if (tokens.size > 0) {
    const rows = await db
      .selectFrom('access_tokens_v1 as t')
      .select('t.id')
      .where('t.id', 'in', [...tokens])
      .where(actorsWithin(scope, 't.account_id'))
      .execute();
    for (const row of rows) visible.add(row.id);
  }
  return visible;
}
