import { ACCOUNT_STATUS_LABELS, type AccountStatusId, type TFieldChange, type THistoryKind } from '@rollcall/contracts';
import {
  accountDecider,
  accountStream,
  applicationDecider,
  applicationStream,
  organizationDecider,
  organizationStream,
  readerDecider,
  readerStream,
  teamDecider,
  teamStream,
  type Decider,
  type DomainEvent,
} from '@rollcall/domain';

/**
 * History tabs and time travel (docs/api/compat.md, 'History and time travel'): an entity's state is
 * its stream folded by its own decider, never the read model, so what a tab shows is what the decisions
 * saw. Everything here is pure; the queries read the stream and the names.
 */

type AnyDecider = Pick<Decider<never, DomainEvent, unknown>, 'initialState' | 'evolve'>;

const ENTITIES: Record<THistoryKind, { stream: (id: string) => string; decider: AnyDecider }> = {
  account: { stream: accountStream, decider: accountDecider as unknown as AnyDecider },
  organization: { stream: organizationStream, decider: organizationDecider as unknown as AnyDecider },
  team: { stream: teamStream, decider: teamDecider as unknown as AnyDecider },
  application: { stream: applicationStream, decider: applicationDecider as unknown as AnyDecider },
  reader: { stream: readerStream, decider: readerDecider as unknown as AnyDecider },
};

export const streamOfEntity = (kind: THistoryKind, id: string): string => ENTITIES[kind].stream(id);

/** the state after each event, in stream order (index i: after events[0..i]) */
export function statesAfterEach(kind: THistoryKind, events: ReadonlyArray<Pick<DomainEvent, 'type' | 'data'>>): unknown[] {
  const { decider } = ENTITIES[kind];
  const states: unknown[] = [];
  let state = decider.initialState();
  for (const event of events) {
    state = decider.evolve(state, { type: event.type, data: event.data });
    states.push(state);
  }
  return states;
}

export const initialStateOf = (kind: THistoryKind): unknown => ENTITIES[kind].decider.initialState();

/** id -> what people call it (a username, a title, a reader's name) */
export type NameBook = ReadonlyMap<string, string>;

/** hashes, password history and activation links are secrets or noise: never shown, never diffed */
const HIDDEN_KEY = /hash|secret|history|activation/i;
/** ids are UUIDs (v7 here; any version accepted): the strings worth looking up in the name book */
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const looksLikeId = (value: unknown): value is string => typeof value === 'string' && ID.test(value);

/** every id-looking string in a value (keys too: roles are kept by organization id) */
export function idsIn(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (looksLikeId(value)) into.add(value);
  else if (value instanceof Map) {
    for (const [key, item] of value) {
      idsIn(key, into);
      idsIn(item, into);
    }
  }
  else if (value instanceof Set || Array.isArray(value)) for (const item of value) idsIn(item, into);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (HIDDEN_KEY.test(key)) continue;
      idsIn(key, into);
      idsIn(item, into);
    }
  }
  return into;
}

const nameOf = (value: string, names: NameBook): string => names.get(value) ?? value;

function textOf(value: unknown, names: NameBook): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return nameOf(value, names);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Set) return textOf([...value], names);
  if (Array.isArray(value)) return value.map((item) => textOf(item, names)).join(', ');
  if (value instanceof Map) return textOf(Object.fromEntries(value), names);
  return Object.entries(value)
    .filter(([key]) => !HIDDEN_KEY.test(key))
    .map(([, item]) => textOf(item, names))
    .filter((text) => text !== '')
    .join(' ');
}

/** 'rolesByOrganization' -> 'roles by organization' */
const words = (key: string): string =>
  key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();

/**
 * A state as labelled display texts: nested plain objects become 'parent › child' labels (an id
 * as a key is shown by its name), lists and records inside lists become one text. Secrets are left out.
 */
export function flattenState(state: unknown, names: NameBook): Map<string, string> {
  const fields = new Map<string, string>();
  const visit = (value: unknown, label: string) => {
    const plain = value instanceof Map ? Object.fromEntries(value) : value;
    if (plain && typeof plain === 'object' && !Array.isArray(plain) && !(plain instanceof Set)) {
      for (const [key, item] of Object.entries(plain)) {
        if (HIDDEN_KEY.test(key)) continue;
        const part = looksLikeId(key) ? nameOf(key, names) : words(key);
        visit(item, label ? `${label} › ${part}` : part);
      }
      return;
    }
    // an account's status is a number in its events and state: shown by the name the console gives it
    if (label === 'status id' && typeof plain === 'number') {
      fields.set('status', ACCOUNT_STATUS_LABELS[plain as AccountStatusId] ?? String(plain));
      return;
    }
    // an entity's own id is shown as it is: naming it would show 'id: ada' for an account
    const text = label === 'id' && typeof plain === 'string' ? plain : textOf(plain, names);
    if (label && text !== '') fields.set(label, text);
  };
  visit(state, '');
  return fields;
}

/** the fields that differ, in the order they appear (after first, then the ones that disappeared) */
export function changesBetween(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): TFieldChange[] {
  const changes: TFieldChange[] = [];
  for (const [field, value] of after) {
    const previous = before.get(field) ?? null;
    if (previous !== value) changes.push({ field, before: previous, after: value });
  }
  for (const [field, value] of before) if (!after.has(field)) changes.push({ field, before: value, after: null });
  return changes;
}

/** 'AccountProfileUpdated' -> 'Account profile updated' */
export const sentenceOfType = (type: string): string => {
  const text = words(type);
  return text.charAt(0).toUpperCase() + text.slice(1);
};

type Data = Record<string, unknown>;

const clocks = new Map<string, Intl.DateTimeFormat>();
/**
 * An instant as the console shows attendance: the local date and time of day in the person's zone
 * (the account's, else its organization's, as the server draws the day), with the zone named.
 */
export function zonedText(instant: unknown, timeZone: string): string {
  if (typeof instant !== 'string' || Number.isNaN(Date.parse(instant))) return '?';
  let clock = clocks.get(timeZone);
  if (!clock) {
    clock = new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    clocks.set(timeZone, clock);
  }
  const parts = Object.fromEntries(clock.formatToParts(new Date(instant)).map((part) => [part.type, part.value]));
  return `${parts.day}.${parts.month}.${parts.year} ${parts.hour}:${parts.minute}:${parts.second} (${timeZone})`;
}
const doorOf = (scan: unknown) => (scan && typeof scan === 'object' && typeof (scan as Data).door === 'string' ? ((scan as Data).door as string) : '?');
const atOf = (scan: unknown) => (scan && typeof scan === 'object' ? (scan as Data).at : undefined);
const dayOf = (day: unknown) => (typeof day === 'string' ? day.split('-').reverse().join('.') : '?');

/** the events of a person's attendance, cards and calendar, in words, times in their zone */
const PERSON_SENTENCES: Record<string, (data: Data, name: (id: unknown) => string, at: (instant: unknown) => string) => string> = {
  ArrivalRecorded: (d, _n, at) => `Arrived at ${doorOf(d.scan)}, ${at(atOf(d.scan))}`,
  DepartureRecorded: (d, _n, at) => `Left at ${doorOf(d.scan)}, ${at(atOf(d.scan))}`,
  UncountedScanRecorded: (d, _n, at) => `Scan at ${doorOf(d.scan)}, ${at(atOf(d.scan))}, not counted (${d.reason === 'duplicate' ? 'a repeat' : 'out of order'})`,
  OpenDayFlagged: (d, _n, at) => `Day ${dayOf(d.day)} flagged: no departure ${String(d.openDayLimitHours)} h after the arrival at ${at(d.arrivedAt)}`,
  AttendanceSlotCorrected: (d, _n, at) => {
    const previous = (d.previous ?? {}) as Data;
    const span = (arrived: unknown, departed: unknown) => `${at(arrived)} – ${departed ? at(departed) : 'still in'}`;
    return `Slot of ${dayOf(d.day)} corrected from ${span(previous.arrivedAt, previous.departedAt)} to ${span(d.arrivedAt, d.departedAt)}, because: ${typeof d.reason === 'string' ? d.reason : ''}`;
  },
  ManualSlotRecorded: (d, _n, at) => `Slot of ${dayOf(d.day)} added by hand: ${at(d.arrivedAt)} – ${d.departedAt ? at(d.departedAt) : 'still in'}, because: ${typeof d.reason === 'string' ? d.reason : ''}`,
  // second factors (docs/adr/0025, 0029): names and counts, never a secret (event-redaction.ts)
  TotpEnrolmentStarted: () => 'Authenticator app enrolment started',
  TotpEnrolled: () => 'Authenticator app enrolled',
  TotpUsed: () => 'Signed in with an authenticator app code',
  TotpRemoved: () => 'Authenticator app removed',
  RecoveryCodesGenerated: (d) => `${String(d.count)} recovery codes generated`,
  RecoveryCodeUsed: (d) => `Recovery code used (${String(d.remaining)} left)`,
  SecondFactorsReset: (d) => `Second factors reset: ${String(d.reason)}`,
  PasskeyRegistered: (d) => `Passkey "${String(d.name)}" registered`,
  PasskeyRenamed: (d) => `Passkey renamed to "${String(d.name)}"`,
  PasskeyUsed: () => 'Passkey used',
  PasskeyRemoved: (d) => `Passkey "${String(d.name)}" removed`,
  SmartCardRegistered: (d) => `Card ${String(d.cardUid)} registered (${d.via === 'enrollment' ? 'scanned at an enrollment reader' : 'assigned by an administrator'})`,
  SmartCardRemoved: (d) => `Card ${String(d.cardUid)} removed`,
  CalendarEventGroupCreated: (d, n) => `Calendar: ${String(d.title)} (${n(d.statusId)}) from ${dayOf(d.startDate)} to ${dayOf(d.endDate)} added`,
  CalendarEventGroupChanged: (d, n) => `Calendar: ${String(d.title)} (${n(d.statusId)}) from ${dayOf(d.startDate)} to ${dayOf(d.endDate)} changed`,
  CalendarEventChanged: (d, n) => `Calendar: ${dayOf(d.date)} changed to ${String(d.title)} (${n(d.statusId)})`,
  CalendarEventRemoved: (d) => `Calendar: ${dayOf(d.date)} removed`,
  CalendarEventGroupRemoved: () => 'Calendar: event group removed',
};

const SENTENCES: Record<string, (data: Data, name: (id: unknown) => string) => string> = {
  RoleGrantedToAccount: (d, n) => `Role ${n(d.roleId)} granted in ${n(d.organizationId)}`,
  RoleRevokedFromAccount: (d, n) => `Role ${n(d.roleId)} revoked in ${n(d.organizationId)}`,
  AccountJoinedOrganization: (d, n) => `${n(d.accountId)} joined ${n(d.organizationId)}`,
  AccountLeftOrganization: (d, n) => `${n(d.accountId)} left ${n(d.organizationId)}`,
  AccountAddedToTeam: (d, n) => `${n(d.accountId)} added to team ${n(d.teamId)}`,
  AccountRemovedFromTeam: (d, n) => `${n(d.accountId)} removed from team ${n(d.teamId)}`,
  PermissionGrantedToRole: (d, n) => `Permission ${n(d.permissionId)} granted to role ${n(d.roleId)}`,
  PermissionRevokedFromRole: (d, n) => `Permission ${n(d.permissionId)} revoked from role ${n(d.roleId)}`,
  ApplicationRoleGrantedToAccount: (d, n) => `Application role ${n(d.roleId)} granted in ${n(d.applicationId)}`,
  ApplicationRoleRevokedFromAccount: (d, n) => `Application role ${n(d.roleId)} revoked in ${n(d.applicationId)}`,
  ApplicationConsentGiven: (d, n) => `Consent to ${n(d.applicationId)} given`,
  ApplicationConsentRevoked: (d, n) => `Consent to ${n(d.applicationId)} revoked`,
  AccountStatusChanged: (d) => `Status changed to ${typeof d.statusId === 'number' ? (ACCOUNT_STATUS_LABELS[d.statusId as AccountStatusId] ?? String(d.statusId)) : '?'}`,
};

/** who did it, as people call them: the bootstrap is 'the system' */
export function actorName(actor: string, actorKind: string, names: NameBook): string {
  if (actorKind === 'system') return 'the system';
  // history-scope.ts: an actor outside the caller's scope is not named
  if (actorKind === 'outside_scope') return 'someone outside your scope';
  return nameOf(actor, names);
}

/** 'Role Editor granted in Sales by admin from 10.0.0.4' */
export function describeEvent(event: { type: string; data: unknown; actor: string; actorKind: string; sourceIp: string | null }, names: NameBook, timeZone = 'UTC'): string {
  const data = (event.data && typeof event.data === 'object' ? event.data : {}) as Data;
  const name = (id: unknown) => (typeof id === 'string' ? nameOf(id, names) : '?');
  const what = PERSON_SENTENCES[event.type]?.(data, name, (instant) => zonedText(instant, timeZone)) ?? SENTENCES[event.type]?.(data, name) ?? sentenceOfType(event.type);
  const from = event.sourceIp ? ` from ${event.sourceIp}` : '';
  return `${what} by ${actorName(event.actor, event.actorKind, names)}${from}`;
}
