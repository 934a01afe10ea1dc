import { DomainError, fieldError, type Decider, type DomainEvent } from '../shared';

/**
 * A door reader (docs/adr/0013), one stream each (`reader-{id}`): its name, its door, its role, the
 * hash of the one token it authenticates with, and its register mode. Its scans go to a stream of
 * their own (the scan ledger, ../attendance/scan-ledger.ts), so scans never contend with an
 * administrator's edit of the reader.
 *
 * Register mode belongs to the reader because it is a state of that device: an enrollment reader is
 * armed for one account at a time, and the next card presented there is that account's. Arming and
 * the enrollment scan meet on this stream, so a cancel racing a scan is decided by the stream's
 * version, never by luck.
 *
 * Health (last contact, queue depth) is not an event: see reader-health.ts.
 */
export const READER_ROLES = ['door', 'enrollment'] as const;
export type ReaderRole = (typeof READER_ROLES)[number];

export const READER_LIMITS = { nameMax: 255, doorMax: 255 } as const;
/** how long register mode waits for a card; the console's dialog closes when it ends */
export const REGISTER_MODE_TIMEOUT_SECONDS = { default: 120, min: 10, max: 600 } as const;

export type RegisterModeEndReason = 'cancelled' | 'expired' | 'card_registered' | 'card_already_registered' | 'replaced' | 'reader_deleted';

export type DoorReaderRegistered = DomainEvent<'DoorReaderRegistered', { readerId: string; name: string; door: string; role: ReaderRole; registeredAt: string }>;
export type DoorReaderRenamed = DomainEvent<'DoorReaderRenamed', { readerId: string; name: string; previousName: string; renamedAt: string }>;
export type DoorReaderMoved = DomainEvent<'DoorReaderMoved', { readerId: string; door: string; previousDoor: string; movedAt: string }>;
/** tokenHash: SHA-256 (hex) of the token shown once; `replacedTokenHash`: the token it ends, if any */
export type ReaderTokenIssued = DomainEvent<'ReaderTokenIssued', { readerId: string; tokenHash: string; displayPrefix: string; replacedTokenHash: string | null; issuedAt: string }>;
export type ReaderTokenRevoked = DomainEvent<'ReaderTokenRevoked', { readerId: string; tokenHash: string; revokedAt: string }>;
export type RegisterModeStarted = DomainEvent<'RegisterModeStarted', { readerId: string; accountId: string; startedBy: string; expiresAt: string; startedAt: string }>;
/** `cardUid`: the card that ended it, for 'card_registered' and 'card_already_registered' */
export type RegisterModeEnded = DomainEvent<'RegisterModeEnded', { readerId: string; accountId: string; reason: RegisterModeEndReason; cardUid: string | null; endedAt: string }>;
/** the token dies with the reader: authentication checks the reader's state, not only the hash */
export type DoorReaderDeleted = DomainEvent<'DoorReaderDeleted', { readerId: string; name: string; deletedAt: string }>;
export type ReaderEvent =
  | DoorReaderRegistered
  | DoorReaderRenamed
  | DoorReaderMoved
  | ReaderTokenIssued
  | ReaderTokenRevoked
  | RegisterModeStarted
  | RegisterModeEnded
  | DoorReaderDeleted;
export const READER_EVENT_TYPES: ReaderEvent['type'][] = [
  'DoorReaderRegistered',
  'DoorReaderRenamed',
  'DoorReaderMoved',
  'ReaderTokenIssued',
  'ReaderTokenRevoked',
  'RegisterModeStarted',
  'RegisterModeEnded',
  'DoorReaderDeleted',
];

export type RegisterReader = { type: 'RegisterReader'; data: { readerId: string; name: string; door: string; role: string; at: string } };
export type RenameReader = { type: 'RenameReader'; data: { name: string; at: string } };
export type MoveReader = { type: 'MoveReader'; data: { door: string; at: string } };
/** the caller made the token and hashed it; the clear token is answered once and never stored */
export type IssueReaderToken = { type: 'IssueReaderToken'; data: { tokenHash: string; displayPrefix: string; at: string } };
export type RevokeReaderToken = { type: 'RevokeReaderToken'; data: { at: string } };
export type DeleteReader = { type: 'DeleteReader'; data: { at: string } };
/** `POST scanner/mode/register/{account}`; the caller checked the account exists */
export type StartRegisterMode = { type: 'StartRegisterMode'; data: { accountId: string; startedBy: string; timeoutSeconds: number; at: string } };
/** `POST scanner/cancel`; nothing armed (already ended, expired) is fine: the dialog just closes */
export type CancelRegisterMode = { type: 'CancelRegisterMode'; data: { at: string } };
/** the sweeper: ends an arming whose time is up, so the console hears of it */
export type ExpireRegisterMode = { type: 'ExpireRegisterMode'; data: { at: string } };
export type ReaderCommand = RegisterReader | RenameReader | MoveReader | IssueReaderToken | RevokeReaderToken | DeleteReader | StartRegisterMode | CancelRegisterMode | ExpireRegisterMode;

export interface RegisterModeState {
  accountId: string;
  startedBy: string;
  expiresAt: string;
}

export type ReaderState =
  | { status: 'none' }
  | { status: 'active'; readerId: string; name: string; door: string; role: ReaderRole; tokenHash: string | null; registerMode: RegisterModeState | null }
  | { status: 'deleted'; readerId: string };

const notFound = () => new DomainError('reader.not_found', 'This reader does not exist or was deleted');

function validText(value: string, field: 'name' | 'door', max: number): string {
  const trimmed = value.trim();
  const label = field === 'name' ? 'Name' : 'Door';
  if (!trimmed) throw fieldError(`reader.${field}_invalid`, field, `${label} is required`);
  if ([...trimmed].length > max) throw fieldError(`reader.${field}_invalid`, field, `${label} may be at most ${max} characters`);
  return trimmed;
}

const isRole = (role: string): role is ReaderRole => (READER_ROLES as readonly string[]).includes(role);
const SHA256_HEX = /^[0-9a-f]{64}$/;

/** armed, and its time not yet up at `at` */
export const isArmed = (state: ReaderState, at: string): state is Extract<ReaderState, { status: 'active' }> & { registerMode: RegisterModeState } =>
  state.status === 'active' && state.registerMode !== null && Date.parse(state.registerMode.expiresAt) > Date.parse(at);

const ended = (state: Extract<ReaderState, { status: 'active' }>, reason: RegisterModeEndReason, at: string, cardUid: string | null = null): RegisterModeEnded => ({
  type: 'RegisterModeEnded',
  data: { readerId: state.readerId, accountId: (state.registerMode as RegisterModeState).accountId, reason, cardUid, endedAt: at },
});

export function decideReader(command: ReaderCommand, state: ReaderState): ReaderEvent[] {
  if (command.type === 'RegisterReader') {
    if (state.status !== 'none') throw new DomainError('reader.exists', 'This reader already exists');
    const { readerId, role, at } = command.data;
    const name = validText(command.data.name, 'name', READER_LIMITS.nameMax);
    const door = validText(command.data.door, 'door', READER_LIMITS.doorMax);
    if (!isRole(role)) throw fieldError('reader.role_invalid', 'role', `Role must be one of ${READER_ROLES.join(', ')}`);
    return [{ type: 'DoorReaderRegistered', data: { readerId, name, door, role, registeredAt: at } }];
  }
  if (state.status !== 'active') throw notFound();
  switch (command.type) {
    case 'RenameReader': {
      const name = validText(command.data.name, 'name', READER_LIMITS.nameMax);
      if (name === state.name) return [];
      return [{ type: 'DoorReaderRenamed', data: { readerId: state.readerId, name, previousName: state.name, renamedAt: command.data.at } }];
    }
    case 'MoveReader': {
      const door = validText(command.data.door, 'door', READER_LIMITS.doorMax);
      if (door === state.door) return [];
      return [{ type: 'DoorReaderMoved', data: { readerId: state.readerId, door, previousDoor: state.door, movedAt: command.data.at } }];
    }
    case 'IssueReaderToken': {
      const { tokenHash, displayPrefix, at } = command.data;
      if (!SHA256_HEX.test(tokenHash)) throw new Error('a reader token is stored as the lower-case hex SHA-256 of the token');
      return [{ type: 'ReaderTokenIssued', data: { readerId: state.readerId, tokenHash, displayPrefix, replacedTokenHash: state.tokenHash, issuedAt: at } }];
    }
    case 'RevokeReaderToken':
      if (state.tokenHash === null) throw new DomainError('reader.token_not_found', 'This reader has no token to revoke');
      return [{ type: 'ReaderTokenRevoked', data: { readerId: state.readerId, tokenHash: state.tokenHash, revokedAt: command.data.at } }];
    case 'DeleteReader': {
      const deleted: ReaderEvent = { type: 'DoorReaderDeleted', data: { readerId: state.readerId, name: state.name, deletedAt: command.data.at } };
      // an open 'Add a smartcard' dialog hears that its reader is gone
      return isArmed(state, command.data.at) ? [ended(state, 'reader_deleted', command.data.at), deleted] : [deleted];
    }
    case 'StartRegisterMode': {
      const { accountId, startedBy, timeoutSeconds, at } = command.data;
      if (state.role !== 'enrollment') throw new DomainError('reader.not_enrollment', `${state.name} is a door reader; register mode needs an enrollment reader`);
      const { min, max } = REGISTER_MODE_TIMEOUT_SECONDS;
      if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < min || timeoutSeconds > max) throw new Error(`register mode timeout must be ${min} to ${max} seconds`);
      const events: ReaderEvent[] = [];
      if (isArmed(state, at)) {
        const armed = state.registerMode;
        // another administrator is enrolling another person here: their card must not land on this account
        if (armed.accountId !== accountId && armed.startedBy !== startedBy) {
          throw new DomainError('reader.register_mode_busy', `${state.name} is waiting for another account's card; try again when it is done`);
        }
        // the same account again only extends the time; another account of the same administrator replaces it
        if (armed.accountId !== accountId) events.push(ended(state, 'replaced', at));
      }
      const expiresAt = new Date(Date.parse(at) + timeoutSeconds * 1000).toISOString();
      events.push({ type: 'RegisterModeStarted', data: { readerId: state.readerId, accountId, startedBy, expiresAt, startedAt: at } });
      return events;
    }
    case 'CancelRegisterMode':
      return isArmed(state, command.data.at) ? [ended(state, 'cancelled', command.data.at)] : [];
    case 'ExpireRegisterMode':
      // only an arming whose time is up; an earlier timer (or a second process) records nothing
      return state.registerMode !== null && !isArmed(state, command.data.at) ? [ended(state, 'expired', command.data.at)] : [];
    default: {
      const unhandled: never = command;
      throw new Error(`unhandled command ${(unhandled as { type: string }).type}`);
    }
  }
}

export function evolveReader(state: ReaderState, event: ReaderEvent): ReaderState {
  switch (event.type) {
    case 'DoorReaderRegistered': {
      const { readerId, name, door, role } = event.data;
      return { status: 'active', readerId, name, door, role, tokenHash: null, registerMode: null };
    }
    case 'DoorReaderRenamed':
      return state.status === 'active' ? { ...state, name: event.data.name } : state;
    case 'DoorReaderMoved':
      return state.status === 'active' ? { ...state, door: event.data.door } : state;
    case 'ReaderTokenIssued':
      return state.status === 'active' ? { ...state, tokenHash: event.data.tokenHash } : state;
    case 'ReaderTokenRevoked':
      return state.status === 'active' ? { ...state, tokenHash: null } : state;
    case 'RegisterModeStarted': {
      const { accountId, startedBy, expiresAt } = event.data;
      return state.status === 'active' ? { ...state, registerMode: { accountId, startedBy, expiresAt } } : state;
    }
    case 'RegisterModeEnded':
      return state.status === 'active' ? { ...state, registerMode: null } : state;
    case 'DoorReaderDeleted':
      return { status: 'deleted', readerId: event.data.readerId };
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}

export const readerDecider: Decider<ReaderCommand, ReaderEvent, ReaderState> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveReader,
  decide: decideReader,
};

export const readerStream = (readerId: string) => `reader-${readerId}`;

/** Reader names are unique, case-insensitively: administrators pick readers by name. */
export const readerNameReservation = (name: string) => ({ scope: 'reader.name', value: name.trim().toLowerCase() });
