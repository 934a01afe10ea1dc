import { DomainError, type DomainEvent, type DomainFieldRule } from '../shared';

/**
 * What an account holds towards applications: the application roles it holds, its single sign-on
 * claim values (console-accounts.md tab 10) and the scopes it consented to per application.
 *
 * These are the account's facts and belong in the account's stream (docs/adr/0014), like the
 * organization roles it holds (RoleGrantedToAccount, docs/adr/0012): a grant is serialized with the
 * account's other changes and never contends with edits of the application; an application with many
 * users keeps a short stream; a deleted account refuses them with everything else; and claim values
 * (address, phone number, birth date) are personal data, erased with the account's other personal
 * data. This file is the piece the account decider composes (as the organization composes
 * organization-access.ts): the account decider checks that the account exists, then delegates.
 */
export interface AccountApplicationAccessState {
  /** role ids by application id, in granting order */
  rolesByApplication: Record<string, string[]>;
  /** claim name -> value; a cleared claim is absent */
  claims: Record<string, string>;
  /** scopes consented to, by application id */
  consents: Record<string, string[]>;
}

export const emptyAccountApplicationAccess = (): AccountApplicationAccessState => ({ rolesByApplication: {}, claims: {}, consents: {} });

type WithAccount<T> = T & { accountId: string };
export type ApplicationRoleGrantedToAccount = DomainEvent<'ApplicationRoleGrantedToAccount', WithAccount<{ applicationId: string; roleId: string; at: string }>>;
export type ApplicationRoleRevokedFromAccount = DomainEvent<'ApplicationRoleRevokedFromAccount', WithAccount<{ applicationId: string; roleId: string; at: string }>>;
/** only the claims that changed; null clears one */
export type AccountClaimsChanged = DomainEvent<'AccountClaimsChanged', WithAccount<{ claims: Record<string, string | null>; at: string }>>;
/** only the scopes not consented to before */
export type ApplicationConsentGiven = DomainEvent<'ApplicationConsentGiven', WithAccount<{ applicationId: string; scopes: string[]; at: string }>>;
/** the next sign-in to that application asks again */
export type ApplicationConsentRevoked = DomainEvent<'ApplicationConsentRevoked', WithAccount<{ applicationId: string; scopes: string[]; at: string }>>;

export type AccountApplicationEvent = ApplicationRoleGrantedToAccount | ApplicationRoleRevokedFromAccount | AccountClaimsChanged | ApplicationConsentGiven | ApplicationConsentRevoked;
export const ACCOUNT_APPLICATION_EVENT_TYPES: AccountApplicationEvent['type'][] = [
  'ApplicationRoleGrantedToAccount',
  'ApplicationRoleRevokedFromAccount',
  'AccountClaimsChanged',
  'ApplicationConsentGiven',
  'ApplicationConsentRevoked',
];

/** The caller checked on the application's stream that the role is one of that live application's. */
export type GrantApplicationRole = { type: 'GrantApplicationRole'; data: { applicationId: string; roleId: string; at: string } };
export type RevokeApplicationRole = { type: 'RevokeApplicationRole'; data: { applicationId: string; roleId: string; at: string } };
/** The tab's text fields by claim name; '' or null clears one. The contracts check the names against the claim catalogue. */
export type SetAccountClaims = { type: 'SetAccountClaims'; data: { claims: Record<string, string | null>; at: string } };
/** From the consent page: the scopes the provider asked about, which the caller checked the application offers. */
export type GiveApplicationConsent = { type: 'GiveApplicationConsent'; data: { applicationId: string; scopes: string[]; at: string } };
export type RevokeApplicationConsent = { type: 'RevokeApplicationConsent'; data: { applicationId: string; at: string } };

export type AccountApplicationCommand = GrantApplicationRole | RevokeApplicationRole | SetAccountClaims | GiveApplicationConsent | RevokeApplicationConsent;
export const ACCOUNT_APPLICATION_COMMAND_TYPES: AccountApplicationCommand['type'][] = [
  'GrantApplicationRole',
  'RevokeApplicationRole',
  'SetAccountClaims',
  'GiveApplicationConsent',
  'RevokeApplicationConsent',
];

const COMMANDS = new Set<string>(ACCOUNT_APPLICATION_COMMAND_TYPES);
const EVENTS = new Set<string>(ACCOUNT_APPLICATION_EVENT_TYPES);
export const isAccountApplicationCommand = (command: { type: string }): command is AccountApplicationCommand => COMMANDS.has(command.type);
export const isAccountApplicationEvent = (event: { type: string }): event is AccountApplicationEvent => EVENTS.has(event.type);

/** the tab's counter */
export const CLAIM_VALUE_MAX = 255;
/** OpenID Connect claim names are snake_case (given_name, phone_number) */
const CLAIM_NAME = /^[a-z][a-z0-9_]{0,63}$/;
/** an RFC 6749 scope token: printable ASCII without space, '"' and '\' */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** The claims that differ from the state, values trimmed and '' as null; every broken rule under its claim's name. */
function changedClaims(state: AccountApplicationAccessState, claims: Record<string, string | null>): Record<string, string | null> {
  const fields: Record<string, string[]> = {};
  const changes: Record<string, string | null> = {};
  // each message with the field rule it breaks (FIELD_RULE_CODES of libs/contracts), so a console translates it
  const rules: DomainFieldRule[] = [];
  const broken = (field: string, message: string, code: string, params: Record<string, string | number>) => {
    fields[field] = [message];
    rules.push({ field, message, code, params });
  };
  for (const [name, raw] of Object.entries(claims)) {
    const value = raw?.trim() || null;
    if (!CLAIM_NAME.test(name)) broken(name, `${name} is not a claim name (lowercase letters, digits and '_')`, 'claim_name', { label: name });
    else if (value !== null && [...value].length > CLAIM_VALUE_MAX) broken(name, `${name} may be at most ${CLAIM_VALUE_MAX} characters`, 'too_long', { label: name, max: CLAIM_VALUE_MAX });
    else if (value !== (state.claims[name] ?? null)) changes[name] = value;
  }
  const [field] = Object.keys(fields);
  if (field) throw new DomainError('account.claim_invalid', fields[field][0], field, fields, rules);
  return changes;
}

/** Decides for an existing account (the account decider checked it and passes its id). */
export function decideAccountApplicationAccess(command: AccountApplicationCommand, state: AccountApplicationAccessState, accountId: string): AccountApplicationEvent[] {
  switch (command.type) {
    case 'GrantApplicationRole': {
      const { applicationId, roleId, at } = command.data;
      // switching on what is on changes nothing (a double click, two consoles)
      if ((state.rolesByApplication[applicationId] ?? []).includes(roleId)) return [];
      return [{ type: 'ApplicationRoleGrantedToAccount', data: { accountId, applicationId, roleId, at } }];
    }
    case 'RevokeApplicationRole': {
      const { applicationId, roleId, at } = command.data;
      if (!(state.rolesByApplication[applicationId] ?? []).includes(roleId)) return [];
      return [{ type: 'ApplicationRoleRevokedFromAccount', data: { accountId, applicationId, roleId, at } }];
    }
    case 'SetAccountClaims': {
      const claims = changedClaims(state, command.data.claims);
      // saving an unchanged tab records nothing
      return Object.keys(claims).length ? [{ type: 'AccountClaimsChanged', data: { accountId, claims, at: command.data.at } }] : [];
    }
    case 'GiveApplicationConsent': {
      const { applicationId, at } = command.data;
      const bad = command.data.scopes.find((scope) => !SCOPE_TOKEN.test(scope));
      if (bad !== undefined) throw new DomainError('consent.scope_invalid', `${JSON.stringify(bad)} is not a scope token`, 'scopes');
      const held = state.consents[applicationId] ?? [];
      const scopes = [...new Set(command.data.scopes)].filter((scope) => !held.includes(scope));
      return scopes.length ? [{ type: 'ApplicationConsentGiven', data: { accountId, applicationId, scopes, at } }] : [];
    }
    case 'RevokeApplicationConsent': {
      const { applicationId, at } = command.data;
      const held = state.consents[applicationId] ?? [];
      return held.length ? [{ type: 'ApplicationConsentRevoked', data: { accountId, applicationId, scopes: held, at } }] : [];
    }
    default: {
      const unhandled: never = command;
      throw new Error(`unhandled command ${(unhandled as { type: string }).type}`);
    }
  }
}

export function evolveAccountApplicationAccess(state: AccountApplicationAccessState, event: AccountApplicationEvent): AccountApplicationAccessState {
  switch (event.type) {
    case 'ApplicationRoleGrantedToAccount': {
      const held = state.rolesByApplication[event.data.applicationId] ?? [];
      return { ...state, rolesByApplication: { ...state.rolesByApplication, [event.data.applicationId]: [...held, event.data.roleId] } };
    }
    case 'ApplicationRoleRevokedFromAccount': {
      const held = (state.rolesByApplication[event.data.applicationId] ?? []).filter((id) => id !== event.data.roleId);
      return { ...state, rolesByApplication: { ...state.rolesByApplication, [event.data.applicationId]: held } };
    }
    case 'AccountClaimsChanged': {
      const claims = { ...state.claims };
      for (const [name, value] of Object.entries(event.data.claims)) {
        if (value === null) delete claims[name];
        else claims[name] = value;
      }
      return { ...state, claims };
    }
    case 'ApplicationConsentGiven': {
      const held = state.consents[event.data.applicationId] ?? [];
      return { ...state, consents: { ...state.consents, [event.data.applicationId]: [...held, ...event.data.scopes] } };
    }
    case 'ApplicationConsentRevoked': {
      const { [event.data.applicationId]: _revoked, ...consents } = state.consents;
      return { ...state, consents };
    }
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}
