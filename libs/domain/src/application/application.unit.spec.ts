import { describe, expect, it } from 'vitest';
import { givenFor } from '../../test/given';
import { fold } from '../shared';
import { applicationDecider, needsNewClientSecret, type ApplicationCommand, type ApplicationEvent, type CreateApplication } from './application';
import type { ApplicationClientSettings } from './application-client';

const at = '2026-11-22T08:00:00.000Z';
const app = 'app-1';
const hash = 'a'.repeat(64);
const newHash = 'b'.repeat(64);
const application = givenFor(applicationDecider);

const client = (changes: Partial<ApplicationClientSettings> = {}): ApplicationClientSettings => ({
  clientType: 'confidential',
  redirectUris: ['https://crm.example.com/callback'],
  postLogoutRedirectUris: ['https://crm.example.com/'],
  grantTypes: ['authorization_code', 'refresh_token'],
  requirePkce: true,
  ...changes,
});
const create = (changes: Partial<CreateApplication['data']> = {}): ApplicationCommand => ({
  type: 'CreateApplication',
  data: { applicationId: app, title: 'CRM', url: 'https://crm.example.com', description: '', scopes: [{ scope: 'profile', description: 'Your name' }], client: client(), clientSecretHash: hash, createdAt: at, ...changes },
});
const created = (changes: Partial<Extract<ApplicationEvent, { type: 'ApplicationCreated' }>['data']> = {}): ApplicationEvent => ({
  type: 'ApplicationCreated',
  data: { applicationId: app, title: 'CRM', url: 'https://crm.example.com', description: '', scopes: [{ scope: 'profile', description: 'Your name' }], client: client(), createdAt: at, ...changes },
});
const secretIssued = (secretHash = hash): ApplicationEvent => ({ type: 'ApplicationClientSecretIssued', data: { applicationId: app, secretHash, issuedAt: at } });
const deleted: ApplicationEvent = { type: 'ApplicationDeleted', data: { applicationId: app, title: 'CRM', deletedAt: at } };
const publicCreated = created({ client: client({ clientType: 'public' }) });
const configure = (changes: Partial<ApplicationClientSettings> = {}, clientSecretHash: string | null = null): ApplicationCommand => ({
  type: 'ConfigureApplicationClient',
  data: { ...client(changes), clientSecretHash, changedAt: at },
});

describe('application: create', () => {
  it('creates a confidential application and issues its first secret as a hash', () =>
    application([]).when(create({ title: '  CRM ', scopes: [{ scope: ' profile ', description: 'Your name' }] })).then([created(), secretIssued()]));

  it('creates a public client without a secret, and the URL is optional', () =>
    application([])
      .when(create({ url: '  ', client: client({ clientType: 'public' }), clientSecretHash: null }))
      .then([created({ url: null, client: client({ clientType: 'public' }) })]));

  it('creates what the spec dialog sends: no redirect URI and no grant type yet', () =>
    application([])
      .when(create({ client: client({ redirectUris: [], postLogoutRedirectUris: [], grantTypes: [] }) }))
      .then([created({ client: client({ redirectUris: [], postLogoutRedirectUris: [], grantTypes: [] }) }), secretIssued()]));

  it('refuses a missing title, a bad URL and bad scopes under their fields, all at once', () => {
    application([]).when(create({ title: ' ' })).thenThrows('application.title_invalid', 'title');
    application([]).when(create({ title: 'x'.repeat(256) })).thenThrows('application.title_invalid', 'title');
    application([]).when(create({ url: 'crm.example.com' })).thenThrows('application.url_invalid', 'url');
    application([]).when(create({ url: `https://crm.example.com/${'x'.repeat(240)}` })).thenThrows('application.url_invalid', 'url');
    application([]).when(create({ description: 'x'.repeat(2001) })).thenThrows('application.description_invalid', 'description');
    application([]).when(create({ scopes: [{ scope: 'Read Invoices', description: '' }] })).thenThrows('application.scope_invalid', 'scopes');
    application([]).when(create({ scopes: [{ scope: '', description: 'nothing' }] })).thenThrows('application.scope_invalid', 'scopes');
    application([]).when(create({ scopes: [{ scope: 'profile', description: '' }, { scope: 'profile', description: 'again' }] })).thenThrows('application.scope_invalid', 'scopes');
    expect(() => applicationDecider.decide(create({ title: '', url: 'nope', client: client({ redirectUris: ['http://crm.example.com/cb'] }) }), applicationDecider.initialState())).toThrow(
      expect.objectContaining({ code: 'application.title_invalid', fields: { title: ['Title is required'], url: ['URL must be an http or https address'], redirect_uris: [expect.stringContaining('use https')] } }),
    );
  });

  it('refuses bad client settings under their fields', () => {
    application([]).when(create({ client: client({ redirectUris: ['https://crm.example.com/cb#x'] }) })).thenThrows('application.redirect_uri_invalid', 'redirect_uris');
    application([]).when(create({ client: client({ postLogoutRedirectUris: ['/logged-out'] }) })).thenThrows('application.post_logout_redirect_uri_invalid', 'post_logout_redirect_uris');
    application([]).when(create({ client: client({ clientType: 'public', grantTypes: ['client_credentials'] }), clientSecretHash: null })).thenThrows('application.grant_type_invalid', 'grant_types');
    application([]).when(create({ client: client({ clientType: 'public', requirePkce: false }), clientSecretHash: null })).thenThrows('application.pkce_required', 'require_pkce');
  });

  it('takes a secret hash exactly when a new secret is needed, and never a clear secret', () => {
    const decide = (command: ApplicationCommand, events: ApplicationEvent[] = []) => () => applicationDecider.decide(command, fold(applicationDecider, events));
    expect(decide(create({ clientSecretHash: null }))).toThrow(/needs the hash of a new secret/);
    expect(decide(create({ client: client({ clientType: 'public' }) }))).toThrow(/no new secret is needed/);
    expect(decide(create({ clientSecretHash: 'my-clear-secret' }))).toThrow(/never in clear/);
  });

  it('refuses a second create, and anything on an application that does not exist or was deleted', () => {
    application([created(), secretIssued()]).when(create()).thenThrows('application.exists');
    application([]).when({ type: 'DeleteApplication', data: { deletedAt: at } }).thenThrows('application.not_found');
    application([created(), deleted]).when({ type: 'ChangeApplicationBasicInfo', data: { title: 'Again', url: null, description: '', changedAt: at } }).thenThrows('application.not_found');
    application([created(), deleted]).when({ type: 'AddApplicationPermission', data: { permissionId: 'p1', slug: 'invoices:read', description: '', createdAt: at } }).thenThrows('application.not_found');
    application([created(), deleted]).when(create()).thenThrows('application.exists');
  });
});

describe('application: basic info, scopes, delete', () => {
  it("updates basic info ('Basic app info updated') only when something differs", () => {
    application([created()]).when({ type: 'ChangeApplicationBasicInfo', data: { title: 'CRM ', url: 'https://crm.example.com', description: '', changedAt: at } }).then([]);
    application([created()])
      .when({ type: 'ChangeApplicationBasicInfo', data: { title: 'Sales CRM', url: '', description: 'Leads and deals', changedAt: at } })
      .then([{ type: 'ApplicationBasicInfoChanged', data: { applicationId: app, title: 'Sales CRM', url: null, description: 'Leads and deals', changedAt: at } }]);
    application([created()]).when({ type: 'ChangeApplicationBasicInfo', data: { title: '', url: null, description: '', changedAt: at } }).thenThrows('application.title_invalid', 'title');
  });

  it('changes the declared scopes, which share the permissions’ namespace', () => {
    const scopes = [
      { scope: 'profile', description: 'Your name' },
      { scope: 'email', description: 'Your e-mail address' },
    ];
    application([created()]).when({ type: 'ChangeApplicationScopes', data: { scopes, changedAt: at } }).then([{ type: 'ApplicationScopesChanged', data: { applicationId: app, scopes, changedAt: at } }]);
    application([created()]).when({ type: 'ChangeApplicationScopes', data: { scopes: [{ scope: 'profile', description: 'Your name' }], changedAt: at } }).then([]);
    const permission: ApplicationEvent = { type: 'ApplicationPermissionAdded', data: { applicationId: app, permissionId: 'p1', slug: 'invoices:read', description: '', createdAt: at } };
    application([created(), permission])
      .when({ type: 'ChangeApplicationScopes', data: { scopes: [{ scope: 'invoices:read', description: '' }], changedAt: at } })
      .thenThrows('application.scope_invalid', 'scopes');
  });

  it('keeps a declared scope from becoming a permission slug', () => {
    const add = (slug: string): ApplicationCommand => ({ type: 'AddApplicationPermission', data: { permissionId: 'p1', slug, description: '', createdAt: at } });
    application([created({ scopes: [{ scope: 'reports', description: 'Your reports' }] })]).when(add('reports')).thenThrows('permission.slug_taken', 'slug');
    application([created()]).when(add('reports')).then([{ type: 'ApplicationPermissionAdded', data: { applicationId: app, permissionId: 'p1', slug: 'reports', description: '', createdAt: at } }]);
  });

  it('deletes an application once', () => {
    application([created(), secretIssued()]).when({ type: 'DeleteApplication', data: { deletedAt: at } }).then([deleted]);
    application([created(), deleted]).when({ type: 'DeleteApplication', data: { deletedAt: at } }).thenThrows('application.not_found');
  });
});

describe('application: client settings and secret', () => {
  it('records changed settings, and nothing when unchanged', () => {
    application([created(), secretIssued()]).when(configure()).then([]);
    application([created(), secretIssued()])
      .when(configure({ redirectUris: ['https://crm.example.com/callback', 'http://localhost:3000/callback'], grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'] }))
      .then([
        {
          type: 'ApplicationClientConfigured',
          data: {
            applicationId: app,
            ...client({ redirectUris: ['https://crm.example.com/callback', 'http://localhost:3000/callback'], grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'] }),
            changedAt: at,
          },
        },
      ]);
  });

  it('issues a secret when a public client turns confidential, and drops it when it turns public', () => {
    const start = [publicCreated];
    expect(needsNewClientSecret(fold(applicationDecider, start), 'confidential')).toBe(true);
    application(start)
      .when(configure({}, newHash))
      .then([{ type: 'ApplicationClientConfigured', data: { applicationId: app, ...client(), changedAt: at } }, secretIssued(newHash)]);
    const turnedPublic: ApplicationEvent = { type: 'ApplicationClientConfigured', data: { applicationId: app, ...client({ clientType: 'public' }), changedAt: at } };
    const state = fold(applicationDecider, [created(), secretIssued(), turnedPublic]);
    expect(state.status === 'active' && state.clientSecretHash).toBe(null);
    expect(needsNewClientSecret(state, 'confidential')).toBe(true);
    expect(needsNewClientSecret(fold(applicationDecider, [created(), secretIssued()]), 'confidential')).toBe(false);
  });

  it('rotates the secret of a confidential client only', () => {
    application([created(), secretIssued()]).when({ type: 'RotateApplicationClientSecret', data: { clientSecretHash: newHash, rotatedAt: at } }).then([secretIssued(newHash)]);
    application([publicCreated]).when({ type: 'RotateApplicationClientSecret', data: { clientSecretHash: newHash, rotatedAt: at } }).thenThrows('application.client_not_confidential');
    const state = fold(applicationDecider, [created(), secretIssued(), secretIssued(newHash)]);
    expect(state.status === 'active' && state.clientSecretHash).toBe(newHash);
  });

  it('refuses bad settings on change, under their fields', () => {
    application([created(), secretIssued()]).when(configure({ redirectUris: ['https://*.example.com/cb'] })).thenThrows('application.redirect_uri_invalid', 'redirect_uris');
    application([created(), secretIssued()]).when(configure({ clientType: 'public', grantTypes: ['authorization_code', 'client_credentials'] })).thenThrows('application.grant_type_invalid', 'grant_types');
  });
});
