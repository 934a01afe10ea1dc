import { DomainError, type DomainFieldRule } from '../shared';

/**
 * What a relying party needs and the spec's screens do not show (docs/adr/0014): how the application
 * signs in at the OpenID Connect provider. Pure rules; the application decider (application.ts)
 * applies them on create and on every change of the client settings.
 */
export const CLIENT_TYPES = ['confidential', 'public'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];

/** the grant types we offer: no implicit or password grant (both are deprecated by RFC 9700) */
export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

export interface ApplicationClientSettings {
  /** confidential: authenticates at the token endpoint with its secret; public: cannot keep a secret (SPA, native app) */
  clientType: ClientType;
  /** compared exactly (RFC 9700 section 2.1): no wildcard, no prefix match */
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  grantTypes: GrantType[];
  /** always true for a public client; a confidential one may turn it off for an old relying party */
  requirePkce: boolean;
}

export const CLIENT_LIMITS = { uriMax: 2000, urisMax: 20 } as const;

/** Plain http is for a developer's own machine only (RFC 8252 section 7.3 loopback redirects). */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** scheme '://' authority: 'https:example.com' parses as a URL but is not what a client will ever send */
const ABSOLUTE = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+/i;

/**
 * Why a redirect (or post-logout redirect) URI is refused, or null when it is fine. The URI is kept
 * exactly as given, because the provider compares the client's redirect_uri string for string.
 */
export function redirectUriViolation(uri: string): string | null {
  if (!uri) return 'A redirect URI may not be empty';
  if (uri.length > CLIENT_LIMITS.uriMax) return `A redirect URI may be at most ${CLIENT_LIMITS.uriMax} characters`;
  if (/\s/.test(uri)) return `${uri} contains a space: a redirect URI is one absolute URI`;
  if (uri.includes('#')) return `${uri} has a fragment (#): redirect URIs may not have one`;
  if (uri.includes('*')) return `${uri} has a wildcard (*): redirect URIs are matched exactly`;
  if (!ABSOLUTE.test(uri)) return `${uri} is not an absolute URI (scheme://host/path)`;
  let url: URL;
  try {
    // the WHATWG parser (a language global, no I/O) is the one the provider itself uses
    url = new URL(uri);
  } catch {
    return `${uri} is not an absolute URI (scheme://host/path)`;
  }
  if (url.username || url.password) return `${uri} carries a user name or password: redirect URIs may not`;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname)) return null;
  if (url.protocol === 'http:') return `${uri} uses http: only http://localhost, http://127.0.0.1 and http://[::1] may, for development; use https`;
  return `${uri} must use https`;
}

/** SHA-256 as lowercase hex, or an argon2 PHC string: anything else may be a clear secret. */
const SHA256_HEX = /^[0-9a-f]{64}$/;
const ARGON2_PHC = /^\$argon2(id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/;

/**
 * The command carries only the secret's hash (the clear secret is shown once by the API). A value
 * that is not a hash is a bug of the caller, not bad input: it must never reach an event.
 */
export function assertClientSecretHash(hash: string): void {
  if (!SHA256_HEX.test(hash) && !ARGON2_PHC.test(hash)) throw new Error('client secret must arrive as its SHA-256 (hex) or argon2 hash, never in clear');
}

/** the error code of each client settings field */
export const CLIENT_FIELD_CODES: Record<string, string> = {
  redirect_uris: 'application.redirect_uri_invalid',
  post_logout_redirect_uris: 'application.post_logout_redirect_uri_invalid',
  grant_types: 'application.grant_type_invalid',
  require_pkce: 'application.pkce_required',
};

/** Trimmed, without repeats (order kept): the URI lists as they will be stored. */
const cleanUris = (uris: readonly string[]) => [...new Set(uris.map((uri) => uri.trim()))];

/** the field rule a refused redirect URI breaks (FIELD_RULE_CODES of libs/contracts), so a console translates it */
function redirectUriRule(uri: string): { code: string; params: Record<string, string | number> } {
  if (!uri) return { code: 'required', params: { label: 'A redirect URI' } };
  if (uri.length > CLIENT_LIMITS.uriMax) return { code: 'too_long', params: { label: 'A redirect URI', max: CLIENT_LIMITS.uriMax } };
  return { code: 'redirect_uri', params: { label: 'A redirect URI', uri } };
}

type Broken = { message: string; code: string; params: Record<string, string | number> };

function uriListViolation(uris: string[], what: string, label: string): Broken | null {
  if (uris.length > CLIENT_LIMITS.urisMax) return { message: `At most ${CLIENT_LIMITS.urisMax} ${what}`, code: 'too_many', params: { label, max: CLIENT_LIMITS.urisMax } };
  for (const uri of uris) {
    const violation = redirectUriViolation(uri);
    if (violation) return { message: violation, ...redirectUriRule(uri) };
  }
  return null;
}

/**
 * Every broken rule of the client settings, one message per wire field (the console shows them
 * under the fields), each with the field rule it breaks, and the settings as stored: URIs trimmed,
 * repeats dropped.
 */
export function checkClientSettings(settings: ApplicationClientSettings): { settings: ApplicationClientSettings; fields: Record<string, string[]>; rules: DomainFieldRule[] } {
  const clean: ApplicationClientSettings = {
    clientType: settings.clientType,
    redirectUris: cleanUris(settings.redirectUris),
    postLogoutRedirectUris: cleanUris(settings.postLogoutRedirectUris),
    grantTypes: [...new Set(settings.grantTypes)],
    requirePkce: settings.requirePkce,
  };
  const fields: Record<string, string[]> = {};
  const rules: DomainFieldRule[] = [];
  const broken = (field: string, { message, code, params }: Broken) => {
    fields[field] = [message];
    rules.push({ field, message, code, params });
  };
  const redirect = uriListViolation(clean.redirectUris, 'redirect URIs', 'Redirect URIs');
  if (redirect) broken('redirect_uris', redirect);
  else if (clean.grantTypes.includes('authorization_code') && !clean.redirectUris.length) {
    broken('redirect_uris', { message: 'Authorization code needs at least one redirect URI', code: 'needed_by', params: { label: 'Redirect URIs', other: 'Authorization code' } });
  }
  const postLogout = uriListViolation(clean.postLogoutRedirectUris, 'post-logout redirect URIs', 'Post-logout redirect URIs');
  if (postLogout) broken('post_logout_redirect_uris', postLogout);
  if (clean.grantTypes.includes('client_credentials') && clean.clientType === 'public') {
    broken('grant_types', { message: 'Client credentials needs a confidential client: a public client cannot keep a secret', code: 'confidential_only', params: { label: 'Grant types', value: 'client_credentials' } });
  } else if (clean.grantTypes.includes('refresh_token') && !clean.grantTypes.includes('authorization_code')) {
    broken('grant_types', { message: 'Refresh tokens are issued with authorization code only: add authorization_code', code: 'requires', params: { label: 'Grant types', value: 'refresh_token', needs: 'authorization_code' } });
  }
  // a public client's code could be redeemed by whoever intercepts it: PKCE binds it to the client
  if (clean.clientType === 'public' && !clean.requirePkce) broken('require_pkce', { message: 'A public client must use PKCE', code: 'required', params: { label: 'PKCE' } });
  return { settings: clean, fields, rules };
}

/** Throws one DomainError carrying every broken rule, with the first field's code (`codes` by field). */
export function throwFieldViolations(fields: Record<string, string[]>, codes: Record<string, string>, rules: readonly DomainFieldRule[] = []): void {
  const [field] = Object.keys(fields);
  if (field) throw new DomainError(codes[field], fields[field][0], field, fields, rules.length ? rules : undefined);
}

export const sameClientSettings = (a: ApplicationClientSettings, b: ApplicationClientSettings) =>
  a.clientType === b.clientType &&
  a.requirePkce === b.requirePkce &&
  a.redirectUris.join('\n') === b.redirectUris.join('\n') &&
  a.postLogoutRedirectUris.join('\n') === b.postLogoutRedirectUris.join('\n') &&
  [...a.grantTypes].sort().join() === [...b.grantTypes].sort().join();
