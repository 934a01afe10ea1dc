import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import type { TLiveMessage } from '@rollcall/contracts';
import WebSocket from 'ws';
import { Logger } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN, http, liveClient, newAccount, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';
import type { AppRouter } from '../../root-router';
import { TRPC_MAX_BATCH_SIZE } from './trpc-server';

const trpcHttp = (url: string, token?: string) =>
  createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${url}/trpc`, headers: () => (token ? { authorization: `Bearer ${token}` } : {}) })] });

function openSocket(url: string, headers: Record<string, string>): Promise<{ status: number | 'open' }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { headers });
    socket.on('open', () => {
      socket.close();
      resolve({ status: 'open' });
    });
    socket.on('unexpected-response', (_request, response) => resolve({ status: response.statusCode ?? 0 }));
    socket.on('error', () => undefined);
  });
}

describe.each(storageKinds())('tRPC and live pushes (%s)', (kind) => {
  let app: TestApp;
  let token: string;
  beforeAll(async () => {
    app = await startTestApp(kind);
    token = await signIn(app.url);
  });
  afterAll(async () => {
    await app?.destroy();
  });

  it('reads and writes auth info, requires a change and sets a password through tRPC', async () => {
    const client = trpcHttp(app.url, token);
    const account = newAccount();
    const { id } = await client.accounts.create.mutate(account);
    expect(await client.accounts.auth.query({ id })).toEqual({ username: account.username, policy_id: null, status_id: 1, locked_until: null });
    expect(await client.accounts.setAuth.mutate({ id, username: account.username, status_id: 2, policy_id: null })).toEqual({ username: account.username, policy_id: null, status_id: 2, locked_until: null });
    expect((await client.accounts.requirePasswordChange.mutate({ id })).status_id).toBe(3);
    expect(await client.accounts.setPassword.mutate({ id, password: 'a fresh secret 9' })).toEqual({ message: 'Password updated successfully' });
    // a new password ends 'password change required'
    expect((await client.accounts.auth.query({ id })).status_id).toBe(1);
    const signedIn = await trpcHttp(app.url).auth.signIn.mutate({ username: account.username, password: 'a fresh secret 9' });
    if (signedIn.status !== 'signed_in') throw new Error('no second factor is enrolled here');
    expect(signedIn.password_change_required).toBe(false);
  });

  it('signs in, creates and lists through the same handlers as REST', async () => {
    const signedIn = await trpcHttp(app.url).auth.signIn.mutate(ADMIN);
    if (signedIn.status !== 'signed_in') throw new Error('no second factor is enrolled here');
    expect(signedIn.account.username_readable).toBe(ADMIN.username);
    const client = trpcHttp(app.url, signedIn.token);
    const account = newAccount();
    const { id } = await client.accounts.create.mutate(account);
    const page = await client.accounts.list.query({ search: account.username });
    expect(page.data.map((a) => a.id)).toEqual([id]);
    expect((await client.accounts.byId.query({ id })).email).toBe(account.email);
    expect((await http(app.url, token).get(`/api/v1/account/${id}`)).body.username).toBe(account.username);
    expect((await client.policies.list.query())[0].title).toBe('Default policy');
  });

  it('creates, reads, updates and deletes password policies through the same handlers as REST', async () => {
    const client = trpcHttp(app.url, token);
    const title = `tRPC ${Date.now().toString(36)}`;
    const created = await client.policies.create.mutate({ title, description: '', min_length: 10, min_strength: 2, lockout: 3, lockout_duration: 600, history: 4 });
    expect(created).toMatchObject({ title, history: 4, max_age: null, num_accounts: 0 });
    expect((await client.policies.list.query()).map((p) => p.id)).toContain(created.id);
    const updated = await client.policies.update.mutate({ id: created.id, policy: { title, min_length: 11, min_strength: 2, lockout: 3, lockout_duration: 600, max_age: 45 } });
    expect(updated).toMatchObject({ min_length: 11, history: null, max_age: 45 });
    expect(await client.policies.byId.query({ id: created.id })).toEqual(updated);
    expect((await http(app.url, token).get('/api/v1/policies')).body).toContainEqual(updated);
    const invalid = (await client.policies.update.mutate({ id: created.id, policy: { title, min_length: 0, min_strength: 2, lockout: 3, lockout_duration: 600 } }).catch((e: unknown) => e)) as TRPCClientError<AppRouter>;
    expect(invalid.data?.httpStatus).toBe(400);
    expect(invalid.data?.apiError.fields?.min_length).toBeDefined();
    expect(await client.policies.delete.mutate({ id: created.id })).toEqual({ message: `Policy "${title}" deleted` });
    const gone = (await client.policies.byId.query({ id: created.id }).catch((e: unknown) => e)) as TRPCClientError<AppRouter>;
    expect(gone.data?.httpStatus).toBe(404);
  });

  it('answers errors in the REST error shape under data.apiError, with the REST status', async () => {
    const client = trpcHttp(app.url, token);
    const taken = await client.accounts.create.mutate(newAccount({ username: ADMIN.username })).catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(TRPCClientError);
    const error = taken as TRPCClientError<AppRouter>;
    expect(error.data?.httpStatus).toBe(409);
    expect(error.data?.apiError).toMatchObject({ code: 'account.username_taken', fields: { username: [expect.any(String)] } });
    const invalid = (await client.accounts.create.mutate({ ...newAccount(), email: 'nope' }).catch((e: unknown) => e)) as TRPCClientError<AppRouter>;
    expect(invalid.data?.httpStatus).toBe(400);
    expect(invalid.data?.apiError.fields?.email).toBeDefined();
    const anonymous = (await trpcHttp(app.url).accounts.list.query({}).catch((e: unknown) => e)) as TRPCClientError<AppRouter>;
    expect(anonymous.data?.httpStatus).toBe(401);
    // input that is not JSON is the caller's mistake: 400 request.malformed_json, not a server error
    for (const answer of [
      await fetch(`${app.url}/trpc/accounts.list?input=a=1%26b=2`, { headers: { authorization: `Bearer ${token}` } }),
      await fetch(`${app.url}/trpc/accounts.create`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"username": ' }),
    ]) {
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { error: { data: { apiError: { code: string } } } }).error.data.apiError.code).toBe('request.malformed_json');
    }
  });

  it('answers a multipart or raw body to a mutation 415 request.unsupported_media_type, logging no error (docs/security.md, "Bad bodies are bad input")', async () => {
    const logged = vi.spyOn(Logger.prototype, 'error');
    try {
      const bodies: Array<[string, string]> = [
        ['multipart/form-data; boundary=xyz', 'not a multipart body at all'],
        ['multipart/form-data', '--x\r\n'],
        ['multipart/form-data; boundary=xyz', '--xyz\r\nContent-Disposition: form-data; name="username"\r\n\r\nmallory\r\n--xyz--\r\n'],
        ['application/octet-stream', '\u0000\u0001'],
      ];
      for (const [type, body] of bodies) {
        for (const path of ['/trpc/accounts.create', '/trpc/accounts.create?batch=1', '/trpc/policies.delete']) {
          const answer = await fetch(`${app.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': type }, body });
          expect(answer.status, `${type} ${path}`).toBe(415);
          expect(JSON.stringify(await answer.json())).toContain('"apiError":{"code":"request.unsupported_media_type"');
        }
      }
      expect(logged).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
  });

  it('refuses a batch of more calls than the cap before running any, and serves one at the cap (second outside review)', async () => {
    const batchOf = (count: number) => `${app.url}/trpc/${Array.from({ length: count }, () => 'auth.me').join(',')}?batch=1`;
    const over = await fetch(batchOf(TRPC_MAX_BATCH_SIZE + 1));
    expect(over.status).toBe(400);
    const overBody = await over.json();
    // one error for the request, not one 401 per call: no call ran
    expect(Array.isArray(overBody) ? overBody.length : 1).toBe(1);
    expect(JSON.stringify(overBody)).toContain('"apiError":{"code":"request.invalid"');
    const atCap = await fetch(batchOf(TRPC_MAX_BATCH_SIZE), { headers: { authorization: `Bearer ${token}` } });
    expect(atCap.status).toBe(200);
    expect(await atCap.json()).toHaveLength(TRPC_MAX_BATCH_SIZE);
  });

  it('pushes an account created through REST to a subscribed console, live', async () => {
    const { client, close } = liveClient(app.url, token);
    const received: TLiveMessage[] = [];
    const started = new Promise<void>((resolve) => {
      const subscription = client.live.accounts.subscribe(undefined, {
        onStarted: () => resolve(),
        onData: (message) => received.push(message),
      });
      afterAll(() => subscription.unsubscribe());
    });
    await started;
    const { id } = (await http(app.url, token).post('/api/v2/account', newAccount())).body.data;
    await expect.poll(() => received.map((m) => m.kind === 'account.changed' && m.accountId), { timeout: 5000 }).toContain(id);
    await close();
  });

  it('refuses a WebSocket without a session or from a foreign origin', async () => {
    const url = `${app.url.replace('http', 'ws')}/ws`;
    expect((await openSocket(url, {})).status).toBe(401);
    expect((await openSocket(url, { cookie: 'user_session=forged' })).status).toBe(401);
    expect((await openSocket(url, { cookie: `user_session=${token}`, origin: 'https://evil.example' })).status).toBe(403);
    expect((await openSocket(url, { cookie: `user_session=${token}`, origin: app.url })).status).toBe('open');
  });

  it('serves subscriptions over the WebSocket only: over HTTP a session or an access token gets one error, no stream', async () => {
    const credentials: Array<Record<string, string>> = [{ authorization: `Bearer ${token}` }, { cookie: `user_session=${token}` }];
    for (const headers of credentials) {
      const answer = await fetch(`${app.url}/trpc/live.accounts`, { headers, signal: AbortSignal.timeout(10_000) });
      // the whole body arrives and ends: a stream that stayed open would time out here
      const text = await answer.text();
      const errors = [...text.matchAll(/^event: serialized-error\ndata: (.*)$/gm)].map((match) => JSON.parse(match[1]));
      expect(errors).toHaveLength(1);
      expect(errors[0].data.apiError).toEqual({ code: 'request.invalid', message: 'Subscriptions are served over the WebSocket (/ws) only' });
      expect(text).not.toMatch(/^event: message$/m);
    }
  });
});
