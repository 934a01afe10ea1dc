import { auditSchemaStrings } from '@rollcall/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, signIn, startTestApp, storageKinds, type StorageKind, type TestApp } from '../test-app';
import { AppModule } from '../../src/app.module';
import type { AppConfig } from '../../src/platform/config/app-config';
import { controllersOfModule, describedRoutes } from '../../src/platform/http/openapi/described-routes';
import { headOf, proceduresOf } from './hardening-helpers';

/**
 * Input bounds at the boundary, one rule for every engine (docs/security.md, 'Input bounds';
 * docs/adr/0019-input-bounds.md). Before: a NUL in a title answered 500 on PostgreSQL ('invalid byte
 * sequence for encoding "UTF8": 0x00') and was stored on SQLite; a NUL in an account's first name
 * answered 201 on PostgreSQL while its projection set the event aside, so the account never appeared; a
 * lone surrogate answered 500; 2030-02-30 was kept as an expiry; a 120 KB e-mail held the event loop
 * for 20 s. Now each is a 400 naming the field, and nothing is appended, on SQLite and PostgreSQL
 * alike, over REST v2 and tRPC.
 */

/** a megabyte of text (under the 1 MB body limit with its JSON around it) */
const MEGABYTE = 'a'.repeat(1_000_000);
const NUL = 'Engi\u0000nes';
const LONE_SURROGATE = 'Engines \ud800';

interface Target {
  name: string;
  rest: string;
  trpc: string;
  valid: () => Record<string, unknown>;
}

let unique = 0;
const next = () => `${Date.now().toString(36)}${(unique += 1)}`;
const TARGETS: Target[] = [
  {
    name: 'account',
    rest: '/api/v2/account',
    trpc: 'accounts.create',
    valid: () => {
      const id = next();
      return { first_name: 'Ada', last_name: 'Lovelace', email: `ada.${id}@example.org`, username: `ada.${id}`, password: 'analytical engine 1843' };
    },
  },
  { name: 'organization', rest: '/api/v2/organization', trpc: 'organizations.create', valid: () => ({ title: `Engines ${next()}`, description: 'Difference and analytical' }) },
  {
    name: 'policy',
    rest: '/api/v2/policy',
    trpc: 'policies.create',
    valid: () => ({ title: `Staff ${next()}`, description: 'For everyone', min_length: 8, min_strength: 1, lockout: 5, lockout_duration: 60 }),
  },
];

/** [what, field, value] per target: every text field gets a NUL, a lone surrogate and a megabyte */
function badInputs(target: Target): Array<[string, string, unknown]> {
  const fields = Object.entries(target.valid())
    .filter(([, value]) => typeof value === 'string')
    .map(([field]) => field);
  const cases: Array<[string, string, unknown]> = fields.flatMap((field) => [
    ['a NUL', field, NUL] as [string, string, unknown],
    ['a lone surrogate', field, LONE_SURROGATE] as [string, string, unknown],
    ['a megabyte', field, MEGABYTE] as [string, string, unknown],
  ]);
  if (target.name === 'account') {
    for (const date of ['2030-13-45', '2030-02-30', '2030-02-30T08:00:00Z']) cases.push([`the impossible date ${date}`, 'expires_at', date]);
  }
  return cases;
}

describe.each(storageKinds())('input bounds on %s', (kind: StorageKind) => {
  let app: TestApp;
  let admin: ReturnType<typeof http>;

  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
  });
  afterAll(async () => app?.destroy());

  describe.each(TARGETS)('POST $name', (target) => {
    it.each(['rest', 'trpc'] as const)('over %s refuses every bad text with 400 naming the field, and appends nothing', async (transport) => {
      const refusedWrongly: string[] = [];
      for (const [what, field, value] of badInputs(target)) {
        const body = { ...target.valid(), ...(field === 'expires_at' ? { expiry: true } : {}), [field]: value };
        const before = await headOf(app);
        const answer = transport === 'rest' ? await admin.post(target.rest, body) : await admin.post(`/trpc/${target.trpc}`, body);
        const error = transport === 'rest' ? answer.body?.error : answer.body?.error?.data?.apiError;
        const after = await headOf(app);
        if (answer.status !== 400 || error?.code !== 'request.invalid' || !error?.fields?.[field] || after !== before) {
          refusedWrongly.push(`${what} in ${field}: ${answer.status} ${JSON.stringify(error ?? answer.body).slice(0, 200)}${after !== before ? ' (appended!)' : ''}`);
        }
      }
      expect(refusedWrongly).toEqual([]);
    });
  });

  it('still takes emoji, a multi-line description and a real leap day, and they read back as sent', async () => {
    const organization = await admin.post('/api/v2/organization', { title: `Engines 🚂 ${next()}`, description: 'First line\r\n\tsecond 🚂' });
    expect(organization.status, JSON.stringify(organization.body)).toBe(201);
    expect(organization.body.data.description).toBe('First line\r\n\tsecond 🚂');
    const account = { ...TARGETS[0].valid(), first_name: 'Zoë 🙂', expiry: true, expires_at: '2028-02-29' };
    const created = await admin.post('/api/v2/account', account);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const read = await admin.get(`/api/v2/account/${created.body.data.id}`);
    expect(read.body.data.account).toMatchObject({ first_name: 'Zoë 🙂', expires_at: expect.stringMatching(/^2028-02-29/) });
  });

  it('POST account {} names every missing field at once, the password included', async () => {
    const answer = await admin.post('/api/v2/account', {});
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body.error.fields).sort()).toEqual(['email', 'first_name', 'last_name', 'password', 'username']);
  });

  it('a megabyte e-mail in a profile update is refused at once (it held the event loop for 20 s)', async () => {
    const created = await admin.post('/api/v2/account', TARGETS[0].valid());
    const before = await headOf(app);
    const answer = await admin.raw('PUT', `/api/v2/account/${created.body.data.id}`, { first_name: 'Ada', last_name: 'Lovelace', email: `${'a'.repeat(500_000)}@${'a.'.repeat(240_000)}` });
    expect(answer.status).toBe(400);
    expect(answer.body.error.fields.email).toEqual(['E-mail may be at most 1000 characters']);
    expect(await headOf(app)).toBe(before);
  });

  it('every input of every tRPC procedure and REST route holds its strings to the rules', () => {
    // the REST routes as the controllers declare them (platform/http/openapi/described-routes.ts)
    const restRoutes = describedRoutes(controllersOfModule(AppModule.forRoot({} as AppConfig)));
    const findings = [
      ...proceduresOf(app).flatMap((procedure) => procedure.inputs.flatMap((input, index) => auditSchemaStrings(input, `trpc ${procedure.name}#${index}`).findings)),
      ...restRoutes.flatMap(({ method, path, description: { body, query } }) => [
        ...(body ? auditSchemaStrings(body, `${method} ${path} body`).findings : []),
        ...(query ? auditSchemaStrings(query, `${method} ${path} query`).findings : []),
      ]),
    ];
    expect(proceduresOf(app).length).toBeGreaterThan(100);
    expect(restRoutes.length).toBeGreaterThan(150);
    expect(findings.map((finding) => `${finding.rule}: ${finding.path}`)).toEqual([]);
  });
});
