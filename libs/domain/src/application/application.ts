import { DomainError, type Decider, type DomainEvent } from '../shared';
import { ACCESS_TEXT_MAX, SLUG_PATTERN } from '../organization/organization-access';
import {
  APPLICATION_ACCESS_COMMAND_TYPES,
  APPLICATION_ACCESS_EVENT_TYPES,
  APPLICATION_DESCRIPTION_MAX,
  decideApplicationAccess,
  emptyApplicationAccess,
  evolveApplicationAccess,
  type ApplicationAccessCommand,
  type ApplicationAccessEvent,
  type ApplicationAccessState,
} from './application-access';
import { assertClientSecretHash, checkClientSettings, CLIENT_FIELD_CODES, sameClientSettings, throwFieldViolations, type ApplicationClientSettings, type ClientType } from './application-client';

/**
 * An application (a relying party of our OpenID Connect provider, docs/adr/0014): one stream with its
 * own facts (title, URL, description, declared scopes), its client settings and secret hash, and its
 * permissions and roles (application-access.ts). The application id is also its OAuth2 client_id.
 */
export interface ApplicationScope {
  /** an OAuth2 scope token the relying party may request */
  scope: string;
  /** shown on the consent page */
  description: string;
}

export interface ApplicationBasicInfo {
  title: string;
  /** optional in the spec; null when not given */
  url: string | null;
  description: string;
}

export const APPLICATION_LIMITS = { titleMax: ACCESS_TEXT_MAX, urlMax: ACCESS_TEXT_MAX, descriptionMax: APPLICATION_DESCRIPTION_MAX, scopesMax: 50 } as const;

export type ApplicationCreated = DomainEvent<
  'ApplicationCreated',
  ApplicationBasicInfo & { applicationId: string; scopes: ApplicationScope[]; client: ApplicationClientSettings; createdAt: string }
>;
/** 'Basic app info updated' */
export type ApplicationBasicInfoChanged = DomainEvent<'ApplicationBasicInfoChanged', ApplicationBasicInfo & { applicationId: string; changedAt: string }>;
export type ApplicationScopesChanged = DomainEvent<'ApplicationScopesChanged', { applicationId: string; scopes: ApplicationScope[]; changedAt: string }>;
/** the whole client settings; turning public drops the secret */
export type ApplicationClientConfigured = DomainEvent<'ApplicationClientConfigured', ApplicationClientSettings & { applicationId: string; changedAt: string }>;
/** a new secret (first one or rotation), as its hash only: the old one stops working at once */
export type ApplicationClientSecretIssued = DomainEvent<'ApplicationClientSecretIssued', { applicationId: string; secretHash: string; issuedAt: string }>;
export type ApplicationDeleted = DomainEvent<'ApplicationDeleted', { applicationId: string; title: string; deletedAt: string }>;

export type ApplicationOwnEvent = ApplicationCreated | ApplicationBasicInfoChanged | ApplicationScopesChanged | ApplicationClientConfigured | ApplicationClientSecretIssued | ApplicationDeleted;
export const APPLICATION_OWN_EVENT_TYPES: ApplicationOwnEvent['type'][] = [
  'ApplicationCreated',
  'ApplicationBasicInfoChanged',
  'ApplicationScopesChanged',
  'ApplicationClientConfigured',
  'ApplicationClientSecretIssued',
  'ApplicationDeleted',
];
export type ApplicationEvent = ApplicationOwnEvent | ApplicationAccessEvent;
export const APPLICATION_EVENT_TYPES: ApplicationEvent['type'][] = [...APPLICATION_OWN_EVENT_TYPES, ...APPLICATION_ACCESS_EVENT_TYPES];

/**
 * `clientSecretHash`: the hash of a fresh secret, given exactly when the application needs one (a
 * confidential client being created, or a public one turning confidential; see needsNewClientSecret).
 * The API shows the clear secret once when the events hold an ApplicationClientSecretIssued.
 */
export type CreateApplication = {
  type: 'CreateApplication';
  data: ApplicationBasicInfo & { applicationId: string; scopes: ApplicationScope[]; client: ApplicationClientSettings; clientSecretHash: string | null; createdAt: string };
};
export type ChangeApplicationBasicInfo = { type: 'ChangeApplicationBasicInfo'; data: ApplicationBasicInfo & { changedAt: string } };
export type ChangeApplicationScopes = { type: 'ChangeApplicationScopes'; data: { scopes: ApplicationScope[]; changedAt: string } };
export type ConfigureApplicationClient = { type: 'ConfigureApplicationClient'; data: ApplicationClientSettings & { clientSecretHash: string | null; changedAt: string } };
export type RotateApplicationClientSecret = { type: 'RotateApplicationClientSecret'; data: { clientSecretHash: string; rotatedAt: string } };
export type DeleteApplication = { type: 'DeleteApplication'; data: { deletedAt: string } };
export type ApplicationCommand =
  | CreateApplication
  | ChangeApplicationBasicInfo
  | ChangeApplicationScopes
  | ConfigureApplicationClient
  | RotateApplicationClientSecret
  | DeleteApplication
  | ApplicationAccessCommand;

export type ApplicationState =
  | { status: 'none' }
  | {
      status: 'active';
      applicationId: string;
      title: string;
      url: string | null;
      description: string;
      scopes: ApplicationScope[];
      client: ApplicationClientSettings;
      /** null for a public client */
      clientSecretHash: string | null;
      createdAt: string;
      access: ApplicationAccessState;
    }
  | { status: 'deleted'; applicationId: string };

const ACCESS_COMMANDS = new Set<string>(APPLICATION_ACCESS_COMMAND_TYPES);
const ACCESS_EVENTS = new Set<string>(APPLICATION_ACCESS_EVENT_TYPES);
const isAccessCommand = (command: ApplicationCommand): command is ApplicationAccessCommand => ACCESS_COMMANDS.has(command.type);
const isAccessEvent = (event: ApplicationEvent): event is ApplicationAccessEvent => ACCESS_EVENTS.has(event.type);

export const applicationNotFound = () => new DomainError('application.not_found', 'Application not found');

const FIELD_CODES: Record<string, string> = {
  ...CLIENT_FIELD_CODES,
  title: 'application.title_invalid',
  url: 'application.url_invalid',
  description: 'application.description_invalid',
  scopes: 'application.scope_invalid',
};

const length = (text: string) => [...text].length;
const HTTP_URL = /^https?:\/\/[^\s/?#]+(?:[/?#]\S*)?$/i;

/** Basic info as stored (title trimmed, an empty URL is none) and every rule it breaks, by wire field. */
function checkBasicInfo(info: ApplicationBasicInfo): { info: ApplicationBasicInfo; fields: Record<string, string[]> } {
  const title = info.title.trim();
  const url = info.url?.trim() || null;
  const fields: Record<string, string[]> = {};
  if (!title) fields.title = ['Title is required'];
  else if (length(title) > APPLICATION_LIMITS.titleMax) fields.title = [`Title may be at most ${APPLICATION_LIMITS.titleMax} characters`];
  if (url !== null) {
    if (length(url) > APPLICATION_LIMITS.urlMax) fields.url = [`URL may be at most ${APPLICATION_LIMITS.urlMax} characters`];
    else if (!HTTP_URL.test(url)) fields.url = ['URL must be an http or https address'];
  }
  if (length(info.description) > APPLICATION_LIMITS.descriptionMax) fields.description = [`Description may be at most ${APPLICATION_LIMITS.descriptionMax} characters`];
  return { info: { title, url, description: info.description }, fields };
}

/**
 * The declared scopes as stored (tokens trimmed) and the first rule they break. A scope shares the
 * permissions' namespace: the consent page finds one description per requested scope.
 */
function checkScopes(scopes: ApplicationScope[], permissionSlugs: readonly string[]): { scopes: ApplicationScope[]; violation: string | null } {
  const clean = scopes.map((item) => ({ scope: item.scope.trim(), description: item.description }));
  const seen = new Set<string>();
  let violation: string | null = null;
  if (clean.length > APPLICATION_LIMITS.scopesMax) violation = `At most ${APPLICATION_LIMITS.scopesMax} scopes`;
  for (const { scope, description } of clean) {
    if (violation) break;
    if (!scope) violation = 'Scope is required';
    else if (scope.length > ACCESS_TEXT_MAX) violation = `Scope may be at most ${ACCESS_TEXT_MAX} characters`;
    else if (!SLUG_PATTERN.test(scope)) violation = `Scope ${scope} may hold lowercase letters, digits, '.', '_', ':' and '-', and starts with a letter or digit`;
    else if (seen.has(scope)) violation = `Scope ${scope} is listed twice`;
    else if (permissionSlugs.includes(scope)) violation = `Scope ${scope} is already a permission slug of this application`;
    else if (length(description) > APPLICATION_LIMITS.descriptionMax) violation = `The description of ${scope} may be at most ${APPLICATION_LIMITS.descriptionMax} characters`;
    seen.add(scope);
  }
  return { scopes: clean, violation };
}

const sameScopes = (a: ApplicationScope[], b: ApplicationScope[]) => a.length === b.length && a.every((item, index) => item.scope === b[index].scope && item.description === b[index].description);

/** Whether a command that sets `clientType` must carry the hash of a fresh secret. */
export function needsNewClientSecret(state: ApplicationState, clientType: ClientType): boolean {
  if (clientType !== 'confidential') return false;
  return state.status !== 'active' || state.client.clientType === 'public';
}

/** The secret hash must come exactly when needed: a stray one would be a secret nobody was shown. */
function secretEvents(needed: boolean, hash: string | null, applicationId: string, at: string): ApplicationClientSecretIssued[] {
  if (needed !== (hash !== null)) throw new Error(needed ? 'a confidential client needs the hash of a new secret' : 'a client secret hash came where no new secret is needed');
  if (hash === null) return [];
  assertClientSecretHash(hash);
  return [{ type: 'ApplicationClientSecretIssued', data: { applicationId, secretHash: hash, issuedAt: at } }];
}

export function decideApplication(command: ApplicationCommand, state: ApplicationState): ApplicationEvent[] {
  // permissions and roles exist only within a live application
  if (isAccessCommand(command)) {
    if (state.status !== 'active') throw applicationNotFound();
    return decideApplicationAccess(command, state.access, { applicationId: state.applicationId, scopes: state.scopes.map((item) => item.scope) });
  }
  switch (command.type) {
    case 'CreateApplication': {
      if (state.status !== 'none') throw new DomainError('application.exists', 'This application already exists');
      const { applicationId, createdAt } = command.data;
      // the create dialog shows every broken rule at once ('field errors are placed on the matching fields')
      const basic = checkBasicInfo(command.data);
      const scopes = checkScopes(command.data.scopes, []);
      const client = checkClientSettings(command.data.client);
      throwFieldViolations({ ...basic.fields, ...(scopes.violation ? { scopes: [scopes.violation] } : {}), ...client.fields }, FIELD_CODES, client.rules);
      return [
        { type: 'ApplicationCreated', data: { applicationId, ...basic.info, scopes: scopes.scopes, client: client.settings, createdAt } },
        ...secretEvents(needsNewClientSecret(state, client.settings.clientType), command.data.clientSecretHash, applicationId, createdAt),
      ];
    }
    case 'ChangeApplicationBasicInfo': {
      if (state.status !== 'active') throw applicationNotFound();
      const { info, fields } = checkBasicInfo(command.data);
      throwFieldViolations(fields, FIELD_CODES);
      if (info.title === state.title && info.url === state.url && info.description === state.description) return [];
      return [{ type: 'ApplicationBasicInfoChanged', data: { applicationId: state.applicationId, ...info, changedAt: command.data.changedAt } }];
    }
    case 'ChangeApplicationScopes': {
      if (state.status !== 'active') throw applicationNotFound();
      const { scopes, violation } = checkScopes(command.data.scopes, Object.values(state.access.permissions).map((permission) => permission.slug));
      if (violation) throwFieldViolations({ scopes: [violation] }, FIELD_CODES);
      if (sameScopes(scopes, state.scopes)) return [];
      return [{ type: 'ApplicationScopesChanged', data: { applicationId: state.applicationId, scopes, changedAt: command.data.changedAt } }];
    }
    case 'ConfigureApplicationClient': {
      if (state.status !== 'active') throw applicationNotFound();
      const { clientSecretHash, changedAt, ...requested } = command.data;
      const { settings, fields, rules } = checkClientSettings(requested);
      throwFieldViolations(fields, FIELD_CODES, rules);
      const secret = secretEvents(needsNewClientSecret(state, settings.clientType), clientSecretHash, state.applicationId, changedAt);
      if (sameClientSettings(settings, state.client)) return [];
      return [{ type: 'ApplicationClientConfigured', data: { applicationId: state.applicationId, ...settings, changedAt } }, ...secret];
    }
    case 'RotateApplicationClientSecret': {
      if (state.status !== 'active') throw applicationNotFound();
      if (state.client.clientType !== 'confidential') throw new DomainError('application.client_not_confidential', 'A public client has no secret: make it confidential first');
      return secretEvents(true, command.data.clientSecretHash, state.applicationId, command.data.rotatedAt);
    }
    case 'DeleteApplication':
      if (state.status !== 'active') throw applicationNotFound();
      return [{ type: 'ApplicationDeleted', data: { applicationId: state.applicationId, title: state.title, deletedAt: command.data.deletedAt } }];
    default: {
      const unhandled: never = command;
      throw new Error(`unhandled command ${(unhandled as { type: string }).type}`);
    }
  }
}

export function evolveApplication(state: ApplicationState, event: ApplicationEvent): ApplicationState {
  if (isAccessEvent(event)) return state.status === 'active' ? { ...state, access: evolveApplicationAccess(state.access, event) } : state;
  switch (event.type) {
    case 'ApplicationCreated': {
      const { applicationId, title, url, description, scopes, client, createdAt } = event.data;
      return { status: 'active', applicationId, title, url, description, scopes, client, clientSecretHash: null, createdAt, access: emptyApplicationAccess() };
    }
    case 'ApplicationBasicInfoChanged':
      return state.status === 'active' ? { ...state, title: event.data.title, url: event.data.url, description: event.data.description } : state;
    case 'ApplicationScopesChanged':
      return state.status === 'active' ? { ...state, scopes: event.data.scopes } : state;
    case 'ApplicationClientConfigured': {
      if (state.status !== 'active') return state;
      const { applicationId: _id, changedAt: _at, ...client } = event.data;
      return { ...state, client, clientSecretHash: client.clientType === 'public' ? null : state.clientSecretHash };
    }
    case 'ApplicationClientSecretIssued':
      return state.status === 'active' ? { ...state, clientSecretHash: event.data.secretHash } : state;
    case 'ApplicationDeleted':
      return { status: 'deleted', applicationId: event.data.applicationId };
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}

export const applicationDecider: Decider<ApplicationCommand, ApplicationEvent, ApplicationState> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveApplication,
  decide: decideApplication,
};

export const applicationStream = (applicationId: string) => `application-${applicationId}`;
