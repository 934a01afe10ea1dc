import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';

type Client = ReturnType<typeof http>;

describe.each(storageKinds())('the event log for people: names beside ids, a filter that can match nothing refused (%s)', (kind) => {
  let app: TestApp;
  let admin: Client;
  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
  });
  afterAll(async () => {
    await app?.destroy();
  });

  it('names the actor and the entity of the stream of each row', async () => {
    const account = await createAccount(admin);
    const page = await admin.get(`/api/v2/audit/events?stream=account-${account.id}`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.data.data[0]).toMatchObject({ type: 'AccountCreated', actor_name: 'admin', stream_name: account.username });
  });

  it('refuses an actor that is neither an id nor system, saying so under the field, on REST and tRPC', async () => {
    const rest = await admin.get('/api/v2/audit/events?actor=not-an-id');
    expect(rest.status).toBe(400);
    expect(rest.body.error.fields.actor).toEqual(['actor must be an account, access token or door reader id (a UUID), or system']);
    const trpc = await admin.get(`/trpc/audit.events?input=${encodeURIComponent(JSON.stringify({ actor: 'not-an-id' }))}`);
    expect(trpc.status).toBe(400);
    expect((await admin.get('/api/v2/audit/events?actor=system')).status).toBe(200);
  });
});
