import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  ZAddApplicationPermissionBody,
  ZApplicationClientInput,
  ZCreateApplicationInput,
  ZCreateApplicationRoleInput,
  ZRemoveApplicationRolePermissionInput,
  ZUpdateApplicationBasicInput,
} from './application-schemas';
import { SSO_CLAIM_NAMES, SSO_CLAIM_SCOPES, ZAccountClaimsInput } from './sso-claims';

const permissionId = '3f0c1f8e-8a8b-4a57-9a2a-4f1b2c3d4e5f';
const otherPermissionId = '9b1d6c2e-1f3a-4e4b-8c5d-6e7f8a9b0c1d';

/** the field errors as the API answers them: path joined with '.', messages in order */
function fieldErrors(schema: z.ZodType, input: unknown): Record<string, string[]> {
  const result = schema.safeParse(input);
  if (result.success) return {};
  const fields: Record<string, string[]> = {};
  for (const issue of result.error.issues) (fields[issue.path.join('.')] ??= []).push(issue.message);
  return fields;
}

describe('create application', () => {
  it('takes what the spec dialog sends, with client settings defaulting to a confidential client not yet configured', () =>
    expect(ZCreateApplicationInput.parse({ title: ' CRM ', url: '', description: null, scopes: [{ scope: ' profile ', description: 'Your name' }] })).toEqual({
      title: 'CRM',
      url: null,
      description: '',
      scopes: [{ scope: 'profile', description: 'Your name' }],
      client_type: 'confidential',
      redirect_uris: [],
      post_logout_redirect_uris: [],
      grant_types: [],
      require_pkce: true,
    }));

  it('names the rule under each field: title required, counters of 255, scope rows', () => {
    expect(fieldErrors(ZCreateApplicationInput, { title: '  ' })).toEqual({ title: ['Title is required'] });
    expect(fieldErrors(ZCreateApplicationInput, { title: 'CRM', url: `https://${'x'.repeat(250)}` })).toEqual({ url: ['URL may be at most 255 characters'] });
    expect(fieldErrors(ZCreateApplicationInput, { title: 'CRM', scopes: [{ scope: '', description: '' }] })).toEqual({ 'scopes.0.scope': ['Scope is required'] });
    expect(fieldErrors(ZCreateApplicationInput, { title: 'CRM', scopes: 'profile' })).toEqual({ scopes: ['scopes must be a list of scope and description'] });
    expect(fieldErrors(ZCreateApplicationInput, { title: 'CRM', scopes: Array.from({ length: 51 }, (_, index) => ({ scope: `s${index}` })) })).toEqual({ scopes: ['At most 50 scopes'] });
  });

  it('refuses an unknown client type or grant type, naming the choices', () => {
    expect(fieldErrors(ZCreateApplicationInput, { title: 'CRM', client_type: 'secret' })).toEqual({ client_type: ['client_type must be one of confidential, public'] });
    expect(fieldErrors(ZCreateApplicationInput, { title: 'CRM', grant_types: ['implicit'] })).toEqual({ 'grant_types.0': ['Grant types are authorization_code, refresh_token, client_credentials'] });
  });
});

describe('client settings', () => {
  it('trims URIs, drops repeated grant types, and reads require_pkce from forms', () =>
    expect(
      ZApplicationClientInput.parse({ client_type: 'public', redirect_uris: [' http://localhost:5173/cb '], grant_types: ['authorization_code', 'authorization_code'], require_pkce: 'true' }),
    ).toEqual({ client_type: 'public', redirect_uris: ['http://localhost:5173/cb'], post_logout_redirect_uris: [], grant_types: ['authorization_code'], require_pkce: true }));

  it('caps the lists and their entries', () => {
    expect(fieldErrors(ZApplicationClientInput, { client_type: 'public', redirect_uris: [''] })).toEqual({ 'redirect_uris.0': ['A redirect URI may not be empty'] });
    expect(fieldErrors(ZApplicationClientInput, { client_type: 'public', post_logout_redirect_uris: Array.from({ length: 21 }, (_, index) => `https://a.example.com/${index}`) })).toEqual({
      post_logout_redirect_uris: ['At most 20 post-logout redirect URIs'],
    });
    expect(fieldErrors(ZApplicationClientInput, {})).toEqual({ client_type: ['client_type must be one of confidential, public'] });
  });
});

describe('basic info, permissions, roles', () => {
  it('updates basic info with the same rules as create', () => {
    expect(ZUpdateApplicationBasicInput.parse({ title: 'CRM', url: ' https://crm.example.com ', description: 'Deals' })).toEqual({ title: 'CRM', url: 'https://crm.example.com', description: 'Deals' });
    expect(fieldErrors(ZUpdateApplicationBasicInput, { url: null })).toEqual({ title: ['Title is required'] });
  });

  it("takes the spec's add-permission body `permission {slug, description}` and a bare one alike", () => {
    expect(ZAddApplicationPermissionBody.parse({ permission: { slug: ' invoices:read ', description: 'Read your invoices' } })).toEqual({ slug: 'invoices:read', description: 'Read your invoices' });
    expect(ZAddApplicationPermissionBody.parse({ slug: 'invoices:read' })).toEqual({ slug: 'invoices:read', description: '' });
    expect(fieldErrors(ZAddApplicationPermissionBody, { permission: { slug: '' } })).toEqual({ slug: ['Slug is required'] });
  });

  it('takes role permissions as ids or {id} objects, once each', () => {
    expect(ZCreateApplicationRoleInput.parse({ title: 'Accountant', slug: 'accountant', permissions: [{ id: permissionId }, otherPermissionId, permissionId] }).permissions).toEqual([permissionId, otherPermissionId]);
    expect(fieldErrors(ZCreateApplicationRoleInput, { title: 'Accountant', slug: 'accountant', permissions: ['p1'] })).toHaveProperty('permissions.0');
  });

  it('names the relation id by its own name', () => expect(fieldErrors(ZRemoveApplicationRolePermissionInput, { id: '12' })).toEqual({ id: ['relation id must be a UUID'] }));
});

describe('single sign-on claims', () => {
  it('groups the standard claims by scope, each claim once', () => {
    expect(SSO_CLAIM_SCOPES.map((group) => group.scope)).toEqual(['profile', 'address', 'phone']);
    expect(new Set(SSO_CLAIM_NAMES).size).toBe(SSO_CLAIM_NAMES.length);
    // these identify the account at a relying party and are never set by hand
    for (const fixed of ['sub', 'email', 'preferred_username', 'roles']) expect(SSO_CLAIM_NAMES).not.toContain(fixed);
  });

  it('trims values and turns empty ones into null (cleared)', () =>
    expect(ZAccountClaimsInput.parse({ claims: { given_name: ' Ada ', nickname: '', birthdate: '1815-12-10', phone_number: null } })).toEqual({
      claims: { given_name: 'Ada', nickname: null, birthdate: '1815-12-10', phone_number: null },
    }));

  it('refuses unknown claims, values over 255 and bad forms, under the claim', () => {
    expect(Object.keys(fieldErrors(ZAccountClaimsInput, { claims: { email: 'mallory@example.com' } }))).toEqual(['claims.email']);
    expect(fieldErrors(ZAccountClaimsInput, { claims: { address: 'x'.repeat(256) } })).toEqual({ 'claims.address': ['address may be at most 255 characters'] });
    expect(fieldErrors(ZAccountClaimsInput, { claims: { website: 'example.com' } })).toEqual({ 'claims.website': ['Website must be an http or https address'] });
    expect(fieldErrors(ZAccountClaimsInput, { claims: { birthdate: '10.12.1815' } })).toEqual({ 'claims.birthdate': ['Birth date must be YYYY-MM-DD, YYYY, or 0000-MM-DD'] });
    expect(ZAccountClaimsInput.parse({ claims: { birthdate: '0000-12-10' } }).claims.birthdate).toBe('0000-12-10');
  });
});
