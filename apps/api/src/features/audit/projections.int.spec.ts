import { randomUUID } from 'node:crypto';
import type { TProjectionsAnswer, TSetAsideEvent } from '@rollcall/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';
import { EVENT_STORE } from '../../platform/tokens';
import type { EventStore } from '../../platform/event-store/event-store.port';

type Client = ReturnType<typeof http>;

/**
 * The projections screen (docs/api/compat.md, 'Projections'; docs/running-in-production.md, 'Read
 * models that set events aside'): every read model's position, lag, rate and state; an event a
 * projection cannot apply is set aside (the others keep going) and can be retried.
 */
describe.each(storageKinds())('projections, set-aside events and retry (%s)', (kind) => {
  let app: TestApp;
  let admin: Client;
  let store: EventStore;

  beforeAll(async () => {
    app = await startTestApp(kind);
    store = app.app.get<EventStore>(EVENT_STORE);
    admin = http(app.url, await signIn(app.url));
  });
  afterAll(async () => {
    await app?.destroy();
  });

  const status = async () => {
    const answer = await admin.get('/api/v2/projections');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data as TProjectionsAnswer;
  };
  const accountsProjection = async () => (await status()).projections.find((projection) => projection.name === 'accounts_v2')!;

  it('lists every read model, caught up with the head after a write', async () => {
    await createAccount(admin);
    const answer = await status();
    expect(answer.projections.map((projection) => projection.name)).toEqual(expect.arrayContaining(['accounts_v2', 'organizations_v1', 'event_log_v1']));
    for (const projection of answer.projections) {
      expect(projection, projection.name).toMatchObject({ state: 'running', lag: 0, lag_more: false, set_aside: 0, position: answer.head });
    }
    expect((await accountsProjection()).rate).toBeGreaterThanOrEqual(0);
  });

  it('sets aside an event the accounts read model refuses, keeps going, and applies it on retry once the cause is gone', async () => {
    // an account, then (bypassing the API's reservation, as a bug or an old import might) a second
    // account event claiming the same username: the read model's unique index refuses it
    const first = await createAccount(admin);
    const twinId = randomUUID();
    const metadata = { eventId: randomUUID(), actor: 'system', actorKind: 'system' as const, sourceIp: null, correlationId: randomUUID(), causationId: null, occurredAt: new Date().toISOString() };
    const created = { accountId: twinId, username: first.username, email: `twin.${twinId}@example.com`, firstName: 'Twin', lastName: 'Account', passwordHash: null, statusId: 4, policyId: null, expiresAt: null, organizationId: null, sendActivation: false, isProtected: false, createdAt: new Date().toISOString() };
    await store.appendToStream(`account-${twinId}`, [{ type: 'AccountCreated', data: created, metadata }], { expectedVersion: 'no_stream' });

    await expect.poll(async () => (await accountsProjection()).set_aside, { timeout: 10_000 }).toBe(1);
    // the 2xx write that a read model set aside is a silent loss to its user unless someone is told:
    // /readyz says so (and stays ready: another replica would not apply the event either)
    const ready = await http(app.url).get('/readyz');
    expect(ready.status, JSON.stringify(ready.body)).toBe(200);
    expect(ready.body.set_aside).toEqual({ total: 1, by_projection: { accounts_v2: 1 } });
    expect(ready.body.warnings).toEqual([expect.stringMatching(/1 event\(s\) set aside by accounts_v2 \(1\)/)]);
    const accounts = await accountsProjection();
    expect(accounts.state).toBe('running');
    expect(accounts.last_error).toMatch(/AccountCreated/);
    // the read model went on: an account created afterwards is there
    const later = await createAccount(admin);
    expect((await admin.get(`/api/v2/account/${later.id}`)).status).toBe(200);
    expect((await admin.get(`/api/v2/account/${twinId}`)).status).toBe(404);

    const listed = await admin.get('/api/v2/projections/accounts_v2/set-aside');
    expect(listed.status).toBe(200);
    const [setAside] = listed.body.data as TSetAsideEvent[];
    expect(setAside).toMatchObject({ projection: 'accounts_v2', stream_id: `account-${twinId}`, event_type: 'AccountCreated', attempts: 1 });
    expect(setAside.error).toMatch(/unique|duplicate/i);

    // still failing: it stays, one more attempt counted
    const again = await admin.post(`/api/v2/projections/accounts_v2/set-aside/${setAside.position}/retry`);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data.applied).toBe(false);
    expect(((await admin.get('/api/v2/projections/accounts_v2/set-aside')).body.data as TSetAsideEvent[])[0].attempts).toBe(2);

    // the cause goes away: the first account is deleted; the retry applies it
    expect((await admin.raw('DELETE', `/api/v1/account/${first.id}`)).status).toBe(200);
    const applied = await admin.post(`/api/v2/projections/accounts_v2/set-aside/${setAside.position}/retry`);
    expect(applied.body.data).toEqual({ applied: true });
    expect((await admin.get(`/api/v2/account/${twinId}`)).status).toBe(200);
    expect((await accountsProjection()).set_aside).toBe(0);
    const readyAgain = await http(app.url).get('/readyz');
    expect(readyAgain.body.set_aside).toEqual({ total: 0, by_projection: {} });
    expect(readyAgain.body.warnings).toBeUndefined();
    // over tRPC the same list, now empty
    const overTrpc = await admin.get(`/trpc/audit.setAside?input=${encodeURIComponent(JSON.stringify({ projection: 'accounts_v2' }))}`);
    expect(overTrpc.body.result.data).toEqual([]);
  });

  it('refuses bad names and positions, unknown projections and events, and anyone without projections:manage', async () => {
    const badName = await admin.get('/api/v2/projections/Accounts!/set-aside');
    expect(badName.status).toBe(400);
    expect(badName.body.error.fields.projection).toBeDefined();
    expect((await admin.get('/api/v2/projections/nothing_v1/set-aside')).status).toBe(404);
    const badPosition = await admin.post('/api/v2/projections/accounts_v2/set-aside/latest/retry');
    expect(badPosition.status).toBe(400);
    expect(badPosition.body.error.fields.position).toBeDefined();
    const notSetAside = await admin.post('/api/v2/projections/accounts_v2/set-aside/1.0/retry');
    expect(notSetAside.status).toBe(404);
    expect(notSetAside.body.error.code).toBe('set_aside.not_found');
    const plain = await createAccount(admin);
    const someone = http(app.url, await signIn(app.url, { username: plain.username, password: plain.password }));
    expect((await someone.get('/api/v2/projections')).status).toBe(403);
    expect((await someone.post('/api/v2/projections/accounts_v2/set-aside/1.0/retry')).status).toBe(403);
  });
});
