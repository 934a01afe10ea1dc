import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, firstOrganization, http, makeSuperAdministrator, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';
import { MAX_SUBSCRIPTIONS_PER_SOCKET, SESSION_ENDED_CLOSE } from './live-connection';
import { QUERIES_OVER_HTTP_ONLY } from './trpc';

/**
 * An open socket is no exception (docs/security.md; docs/adr/0021): the console WebSocket decides
 * on the session and grants as they are now. It carries subscriptions only; each push is checked
 * again; a session that ended (signed out, disabled, deleted; expired: sockets.int.spec.ts) closes
 * the socket with 4401, a revoked permission ends the subscription with FORBIDDEN, and neither gets
 * another push.
 */

interface TrpcFrame {
  id: number | null;
  result?: { type: string; data?: unknown };
  error?: { message: string; data: { code: string; httpStatus: number; apiError: { code: string; message: string } } };
}

/** a console socket spoken to in tRPC's own wire format, as a browser's wsLink does */
async function consoleSocket(url: string, token: string) {
  const socket = new WebSocket(`${url.replace('http', 'ws')}/ws`, { headers: { cookie: `user_session=${token}`, origin: url } });
  const frames: TrpcFrame[] = [];
  let closedWith: number | undefined;
  socket.on('message', (data) => {
    const text = data.toString();
    if (text !== 'PING') frames.push(JSON.parse(text) as TrpcFrame);
  });
  socket.on('close', (code) => (closedWith = code));
  socket.on('error', () => undefined);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('unexpected-response', (_request, response) => reject(new Error(`upgrade answered ${response.statusCode}`)));
  });
  let next = 0;
  const call = (method: 'query' | 'mutation' | 'subscription', path: string, input?: unknown) => {
    next += 1;
    socket.send(JSON.stringify({ id: next, method, params: { path, input } }));
    return next;
  };
  const of = (id: number) => frames.filter((frame) => frame.id === id);
  return {
    socket,
    call,
    of,
    closedWith: () => closedWith,
    /** subscribes and waits until the server says it started */
    subscribe: async (path: string) => {
      const id = call('subscription', path);
      await expect.poll(() => of(id).map((frame) => frame.result?.type ?? frame.error?.data.code)).toContain('started');
      return id;
    },
    pushed: (id: number) => JSON.stringify(of(id).filter((frame) => frame.result?.type === 'data')),
  };
}

describe.each(storageKinds())('the console WebSocket and the session as it is now (%s)', (kind) => {
  let app: TestApp;
  let admin: ReturnType<typeof http>;
  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
  });
  afterAll(async () => {
    await app?.destroy();
  });

  /** an administrator other than `admin`, signed in, with a console socket subscribed to live.accounts */
  async function watchingAdministrator() {
    const account = await createAccount(admin);
    await makeSuperAdministrator(admin, account.id);
    const token = await signIn(app.url, { username: account.username, password: account.password });
    const live = await consoleSocket(app.url, token);
    const subscription = await live.subscribe('live.accounts');
    // it is pushed a change while all is well
    const before = await createAccount(admin);
    await expect.poll(() => live.pushed(subscription), { timeout: 5000 }).toContain(before.id);
    return { account, token, live, subscription };
  }

  it('refuses queries and mutations over the socket: setPassword, tokens.create and reads go over HTTP only', async () => {
    const { account, live } = await watchingAdministrator();
    const victim = await createAccount(admin);
    const calls = [
      live.call('query', 'accounts.list', {}),
      live.call('query', 'auth.me'),
      live.call('mutation', 'accounts.setPassword', { id: victim.id, password: 'taken over by socket 1' }),
      live.call('mutation', 'tokens.create', { account_id: account.id, title: 'from the socket', permissions: ['accounts:read'] }),
    ];
    for (const id of calls) {
      await expect.poll(() => live.of(id).length).toBe(1);
      expect(live.of(id)[0].result).toBeUndefined();
      expect(live.of(id)[0].error?.data).toMatchObject({ code: 'METHOD_NOT_SUPPORTED', apiError: { code: 'request.invalid', message: QUERIES_OVER_HTTP_ONLY } });
    }
    // nothing happened: the victim's password is the old one, no token was minted
    await signIn(app.url, { username: victim.username, password: victim.password });
    const tokens = await admin.get(`/api/v2/account/${account.id}/bearer-tokens`);
    expect(JSON.stringify(tokens.body)).not.toContain('from the socket');
    live.socket.close();
  });

  it('ends the subscription with FORBIDDEN once the role granting it is revoked, and pushes nothing more', async () => {
    const { account, live, subscription } = await watchingAdministrator();
    const { organizationId, roleId } = await firstOrganization(admin);
    const revoked = await admin.raw('DELETE', `/api/v2/organization/${organizationId}/account-role?account_id=${account.id}&role_id=${roleId}`);
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    const after = await createAccount(admin);
    await expect.poll(() => live.of(subscription).find((frame) => frame.error)?.error?.data.code, { timeout: 5000 }).toBe('FORBIDDEN');
    expect(live.pushed(subscription)).not.toContain(after.id);
    // a new subscription on the same socket is refused as well
    const again = live.call('subscription', 'live.accounts');
    await expect.poll(() => live.of(again).find((frame) => frame.error)?.error?.data.code).toBe('FORBIDDEN');
    live.socket.close();
  });

  it('runs at most MAX_SUBSCRIPTIONS_PER_SOCKET subscriptions on one socket; a stopped one frees its place', async () => {
    const live = await consoleSocket(app.url, await signIn(app.url));
    const started: number[] = [];
    for (let i = 0; i < MAX_SUBSCRIPTIONS_PER_SOCKET; i += 1) started.push(await live.subscribe('live.accounts'));
    const refused = live.call('subscription', 'live.accounts');
    await expect.poll(() => live.of(refused).find((frame) => frame.error)?.error?.data).toMatchObject({ code: 'TOO_MANY_REQUESTS', httpStatus: 429 });
    live.socket.send(JSON.stringify({ id: started[0], method: 'subscription.stop' }));
    await expect.poll(() => live.of(started[0]).some((frame) => frame.result?.type === 'stopped')).toBe(true);
    await live.subscribe('live.accounts');
    live.socket.close();
  });

  const endings: Array<[string, (x: { account: { id: string }; token: string }) => Promise<{ status: number }>]> = [
    ['signing out', ({ token }) => http(app.url, token).post('/api/v2/admin/logout')],
    ['disabling the account', ({ account }) => admin.raw('PUT', `/api/v1/account/${account.id}/auth`, { status_id: 2 })],
    ['deleting the account', ({ account }) => admin.raw('DELETE', `/api/v1/account/${account.id}`)],
  ];
  it.each(endings)('closes the socket with 4401 on %s, and pushes nothing more', async (_name, end) => {
    const watching = await watchingAdministrator();
    const ended = await end(watching);
    expect(ended.status).toBeLessThan(300);
    // closed at once, without waiting for a push
    await expect.poll(() => watching.live.closedWith(), { timeout: 5000 }).toBe(SESSION_ENDED_CLOSE);
    const after = await createAccount(admin);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(watching.live.pushed(watching.subscription)).not.toContain(after.id);
    // and the same session cannot open another
    await expect(consoleSocket(app.url, watching.token)).rejects.toThrow('upgrade answered 401');
  });
});
