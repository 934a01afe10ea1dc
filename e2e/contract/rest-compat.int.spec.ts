import { auditSchemaStrings } from '@rollcall/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerSchemaOf, buildOpenApiDocument } from '../../apps/api/src/platform/http/openapi/openapi-document';
import { isFileAnswer } from '../../apps/api/src/platform/http/openapi/rest-description';
import { http, newAccount, signIn, startTestApp, storageKinds, type TestApp } from '../../apps/api/test/test-app';
import { MAIL_LOG_SETTINGS } from '../../apps/api/test/mail-log';
import { REST_ROUTES } from './rest-routes';
import { restSamples } from './rest-samples';

/**
 * The frozen REST contract (docs/adr/0023): every route the controllers declare answers on each
 * prefix it is described on (/api/v1, /api/v2, unprefixed /api) with its status, and each answer is
 * exactly what its answer schema in libs/contracts says: bare on v1, wrapped in {data} on v2, no
 * field missing, none undocumented. The served OpenAPI document is the one built from the same routes.
 * On SQLite, and on PostgreSQL too where ROLLCALL_TEST_PG_URL is set.
 */
describe.each(storageKinds())('REST compatibility contract (%s)', (kind) => {
  let app: TestApp;
  let sampleOf: ReturnType<typeof restSamples>;
  beforeAll(async () => {
    app = await startTestApp(kind, MAIL_LOG_SETTINGS);
    const accountId = (await http(app.url, await signIn(app.url)).post('/api/v1/account', newAccount())).body.id as string;
    sampleOf = restSamples(app, accountId);
  });
  afterAll(async () => {
    await app?.destroy();
  });

  it('lists every route of the API (the reader protocol, downloads and v2-only areas included)', () => {
    expect(REST_ROUTES.length).toBeGreaterThan(150);
    expect(REST_ROUTES.map((route) => `${route.method} ${route.path}`)).toEqual(expect.arrayContaining(['get accounts', 'post reader/scans', 'get accounts/statistics/attendance/download', 'post projections/rebuild']));
  });

  // the rule of docs/adr/0019-input-bounds.md on what each route parses, as its description names it
  it('holds every string a route takes (body, query, path parameters) to the input rules', () => {
    const findings = REST_ROUTES.flatMap((route) => (['body', 'query', 'params'] as const).flatMap((part) => (route.description[part] ? auditSchemaStrings(route.description[part], `${route.method} ${route.path} ${part}`).findings : [])));
    expect(REST_ROUTES.filter((route) => route.description.body).length).toBeGreaterThan(50);
    expect(findings.map((finding) => `${finding.rule}: ${finding.path}`)).toEqual([]);
  });

  it('answers 404 on v1 for the routes that are v2 only', async () => {
    const client = http(app.url, await signIn(app.url));
    const v2Only = REST_ROUTES.filter((route) => !route.prefixes.includes('/api/v1') && route.method === 'get' && !route.path.includes('{'));
    expect(v2Only.length).toBeGreaterThan(0);
    for (const route of v2Only) expect((await client.get(`/api/v1/${route.path}`)).status, route.path).toBe(404);
  });

  for (const route of REST_ROUTES) {
    for (const prefix of route.prefixes) {
      it(`${route.method.toUpperCase()} ${prefix}/${route.path}`, async () => {
        // a fresh session per call: the sign-out rows revoke theirs
        const admin = http(app.url, await signIn(app.url));
        const sample = await sampleOf(route, prefix, admin);
        const caller = sample.token ? http(app.url, sample.token) : route.public ? http(app.url) : admin;
        const path = `${prefix}/${sample.path}`;
        try {
          const response = await caller.raw(route.method.toUpperCase(), path, sample.body, sample.headers);
          expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(route.status);
          const { answer } = route.description;
          if (isFileAnswer(answer)) {
            expect(answer.file.some((mediaType) => response.headers.get('content-type')?.startsWith(mediaType)), `${path}: ${response.headers.get('content-type')}`).toBe(true);
            return;
          }
          const parsed = answerSchemaOf(route, prefix)!.safeParse(response.body);
          expect(parsed.success, parsed.success ? '' : `${path}: ${JSON.stringify(parsed.error.issues)}\n${JSON.stringify(response.body).slice(0, 2000)}`).toBe(true);
          // the schema keeps only the fields it names: what it drops is a field the description misses
          expect(parsed.data, `${path}: a field of the answer is not in its schema`).toEqual(response.body);
        } finally {
          await sample.settle?.();
        }
      });
    }
  }

  it('serves the OpenAPI 3.1 document built from these routes, with every route under its prefixes only', async () => {
    const document = (await http(app.url).get('/api/openapi.json')).body;
    expect(document.openapi).toBe('3.1.0');
    // what Nest mounted (read at run time) is what the module declarations say (read here)
    expect(document).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(REST_ROUTES))));
    for (const route of REST_ROUTES) {
      for (const prefix of ['/api/v1', '/api/v2', '/api'] as const) {
        expect(document.paths[`${prefix}/${route.path}`]?.[route.method], `${prefix}/${route.path}`).toEqual(route.prefixes.includes(prefix) ? expect.anything() : undefined);
      }
    }
    const page = await http(app.url).get('/api/docs');
    expect(page.status).toBe(200);
    expect(String(page.body)).toContain('swagger-ui');
  });
});
