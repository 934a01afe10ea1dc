import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, newAccount, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';
import { READ_DB } from '../tokens';

/**
 * The operators' endpoints (docs/running-in-production.md, 'Health, readiness, metrics'): liveness,
 * readiness and Prometheus metrics, without a session.
 */
describe.each(storageKinds())('health, readiness and metrics (%s)', (kind) => {
  let app: TestApp;
  let admin: ReturnType<typeof http>;
  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
  });
  afterAll(async () => {
    await app?.destroy();
  });

  const metric = (text: string, series: string) => {
    const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };

  it('answers /healthz and /readyz without a session', async () => {
    const anonymous = http(app.url);
    expect(await anonymous.get('/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await anonymous.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { event_store: { ok: true }, read_database: { ok: true }, projections: { ok: true } }, set_aside: { total: 0, by_projection: {} } });
  });

  it('counts requests by route pattern, events appended and projection lag for Prometheus', async () => {
    const before = (await http(app.url).get('/metrics')).body as string;
    const appendedBefore = metric(before, 'rollcall_events_appended_total') ?? 0;
    const created = await admin.post('/api/v2/account', newAccount());
    expect(created.status).toBe(201);
    expect((await admin.get(`/api/v2/account/${created.body.data.id as string}`)).status).toBe(200);

    const scraped = await http(app.url).get('/metrics');
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toContain('text/plain');
    const text = scraped.body as string;
    // the account's events (created, and its first membership when asked) were appended here
    expect(metric(text, 'rollcall_events_appended_total')! - appendedBefore).toBeGreaterThanOrEqual(1);
    // the route's pattern, never the id
    expect(metric(text, 'rollcall_http_requests_total{method="GET",route="/api/v2/account/:id",status="200"}')).toBe(1);
    expect(text).not.toContain(created.body.data.id as string);
    expect(metric(text, 'rollcall_projection_lag_commits{projection="accounts_v2"}')).toBe(0);
    expect(metric(text, 'rollcall_ws_clients')).toBe(0);
    expect(metric(text, 'rollcall_process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
  });

  it('is not ready once the read database is gone, and says which check failed', async () => {
    await app.app.get<Kysely<unknown>>(READ_DB).destroy();
    const ready = await http(app.url).get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.status).toBe('not_ready');
    expect(ready.body.checks.read_database.ok).toBe(false);
    expect(ready.body.checks.event_store).toEqual({ ok: true });
    expect((await http(app.url).get('/healthz')).status).toBe(200);
  });
});

/**
 * The JSON access log (docs/security.md, 'V7 Error handling and logging'): one line per request with its
 * ids, the route pattern and never a token from the path.
 */
describe('structured JSON logs', () => {
  let app: TestApp;
  const lines: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    const destination = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
    app = await startTestApp('sqlite', { ROLLCALL_LOG_LEVEL: 'info', ROLLCALL_LOG_FORMAT: 'json' }, undefined, destination);
  });
  afterAll(async () => {
    await app?.destroy();
  });

  it('writes one JSON line per request with request and correlation ids, and answers them in headers', async () => {
    const token = await signIn(app.url);
    const secretInPath = 'a-secret-activation-token-that-must-not-be-logged';
    const answer = await fetch(`${app.url}/api/v2/account/activation/${secretInPath}`, { headers: { 'x-correlation-id': 'trace-4711', 'x-request-id': 'edge-1' } });
    expect(answer.headers.get('x-correlation-id')).toBe('trace-4711');
    expect(answer.headers.get('x-request-id')).toBe('edge-1');
    const made = await fetch(`${app.url}/api/v2/account`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(newAccount()) });
    expect(made.status).toBe(201);
    const generated = made.headers.get('x-request-id');
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);

    await expect.poll(() => lines.filter((line) => line.msg === 'request').length).toBeGreaterThanOrEqual(3);
    const activation = lines.find((line) => line.request_id === 'edge-1');
    expect(activation).toMatchObject({ level: 30, service: 'rollcall-api', msg: 'request', correlation_id: 'trace-4711', method: 'GET', route: '/api/v2/account/activation/:token', status: 404 });
    expect(typeof activation?.duration_ms).toBe('number');
    expect(lines.find((line) => line.request_id === generated)).toMatchObject({ method: 'POST', route: '/api/v2/account', status: 201 });
    expect(JSON.stringify(lines)).not.toContain(secretInPath);
    // Nest's own lines are JSON too
    expect(lines.some((line) => line.context === 'NestApplication')).toBe(true);
  });
});
