import { describe, expect, it } from 'vitest';
import { assertClientSecretHash, checkClientSettings, redirectUriViolation, type ApplicationClientSettings } from './application-client';

const settings = (changes: Partial<ApplicationClientSettings> = {}): ApplicationClientSettings => ({
  clientType: 'confidential',
  redirectUris: ['https://app.example.com/callback'],
  postLogoutRedirectUris: [],
  grantTypes: ['authorization_code', 'refresh_token'],
  requirePkce: true,
  ...changes,
});

describe('redirect URIs', () => {
  it.each([
    'https://app.example.com/callback',
    'https://app.example.com:8443/auth/callback?tenant=1',
    'http://localhost:5173/callback',
    'http://127.0.0.1/callback',
    'http://[::1]:8080/cb',
  ])('accepts %s', (uri) => expect(redirectUriViolation(uri)).toBeNull());

  it.each([
    ['', 'may not be empty'],
    ['/callback', 'not an absolute URI'],
    ['app.example.com/callback', 'not an absolute URI'],
    ['https:app.example.com/callback', 'not an absolute URI'],
    ['https://app.example.com/callback#done', 'fragment'],
    ['https://app.example.com/callback#', 'fragment'],
    ['https://*.example.com/callback', 'wildcard'],
    ['https://app.example.com/call back', 'space'],
    ['https://user:secret@app.example.com/callback', 'user name or password'],
    ['http://app.example.com/callback', 'use https'],
    ['http://localhost.example.com/callback', 'use https'],
    ['http://127.0.0.2/callback', 'use https'],
    ['ftp://app.example.com/callback', 'must use https'],
    [`https://app.example.com/${'x'.repeat(2000)}`, 'at most 2000'],
  ])('refuses %s, naming the rule', (uri, rule) => expect(redirectUriViolation(uri)).toContain(rule));
});

describe('client settings', () => {
  it('trims URIs and drops repeats, keeping the order', () =>
    expect(checkClientSettings(settings({ redirectUris: [' https://b.example.com/cb', 'https://a.example.com/cb', 'https://b.example.com/cb'], grantTypes: ['authorization_code', 'authorization_code'] }))).toEqual({
      settings: settings({ redirectUris: ['https://b.example.com/cb', 'https://a.example.com/cb'], grantTypes: ['authorization_code'] }),
      fields: {},
      rules: [],
    }));

  it('needs a redirect URI for authorization code, but not for a machine client', () => {
    expect(checkClientSettings(settings({ redirectUris: [] })).fields).toEqual({ redirect_uris: ['Authorization code needs at least one redirect URI'] });
    expect(checkClientSettings(settings({ redirectUris: [], grantTypes: ['client_credentials'] })).fields).toEqual({});
  });

  it('refuses client credentials for a public client and refresh tokens without authorization code', () => {
    expect(checkClientSettings(settings({ clientType: 'public', grantTypes: ['authorization_code', 'client_credentials'] })).fields.grant_types?.[0]).toContain('confidential client');
    expect(checkClientSettings(settings({ grantTypes: ['refresh_token', 'client_credentials'] })).fields.grant_types?.[0]).toContain('add authorization_code');
  });

  it('requires PKCE of a public client; a confidential one may go without', () => {
    expect(checkClientSettings(settings({ clientType: 'public', requirePkce: false })).fields).toEqual({ require_pkce: ['A public client must use PKCE'] });
    expect(checkClientSettings(settings({ requirePkce: false })).fields).toEqual({});
  });

  it('checks post-logout URIs by the same rules, under their own field, and caps both lists', () => {
    expect(checkClientSettings(settings({ postLogoutRedirectUris: ['http://app.example.com/'] })).fields.post_logout_redirect_uris?.[0]).toContain('use https');
    const many = Array.from({ length: 21 }, (_, index) => `https://app.example.com/${index}`);
    expect(checkClientSettings(settings({ redirectUris: many })).fields).toEqual({ redirect_uris: ['At most 20 redirect URIs'] });
  });
});

describe('client secret hashes', () => {
  it('takes SHA-256 hex and argon2 PHC strings only, never a clear secret', () => {
    expect(() => assertClientSecretHash('a'.repeat(64))).not.toThrow();
    expect(() => assertClientSecretHash('$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo')).not.toThrow();
    expect(() => assertClientSecretHash('Q2xlYXJTZWNyZXRTaG93bk9uY2VUb1RoZVVzZXI')).toThrow(/never in clear/);
    expect(() => assertClientSecretHash('A'.repeat(64))).toThrow(/never in clear/);
  });
});
