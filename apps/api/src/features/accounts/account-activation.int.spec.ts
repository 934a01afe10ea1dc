import { createServer, type Server, type Socket } from 'node:net';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activationTokenFor, loggedMails, MAIL_LOG_SETTINGS, waitForMail } from '../../../test/mail-log';
import { createAccount, http, newAccount, signIn, startTestApp, storageKinds, type StorageKind, type TestApp } from '../../../test/test-app';
import { EVENT_STORE, READ_DB } from '../../platform/tokens';
import type { EventStore } from '../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../platform/read-db/read-database';
import { ACTIVATION_EXPIRY_MARK, ACTIVATION_LINK_MARK } from '../../platform/mail/mail-outbox';

const INVALID = { status: 404, body: { error: { code: 'activation.invalid', message: 'This activation link is invalid or has expired' } } };
const PASSWORD = 'a violet pelican sings at dawn';

const outboxOf = (app: TestApp) => app.app.get<symbol, Kysely<ReadDatabase>>(READ_DB).selectFrom('mail_outbox_v1').selectAll().orderBy('created_at');

/** waits (bounded) until the outbox rows of `recipient` satisfy `done` */
async function waitForOutbox(app: TestApp, recipient: string, done: (rows: Awaited<ReturnType<ReturnType<typeof outboxOf>['execute']>>) => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await outboxOf(app).where('recipient', '=', recipient).execute();
    if (done(rows)) return rows;
    if (Date.now() > deadline) throw new Error(`outbox of ${recipient} never got there: ${JSON.stringify(rows)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Just enough SMTP for nodemailer: refuses the first `refuse` connections (421), then accepts and
 * keeps each message's recipients and text.
 */
function fakeSmtp(refuse: number) {
  const received: { to: string[]; data: string }[] = [];
  let refused = 0;
  const server: Server = createServer((socket: Socket) => {
    if (refused < refuse) {
      refused += 1;
      socket.end('421 try again later\r\n');
      return;
    }
    let buffer = '';
    let inData = false;
    let current: { to: string[]; data: string } = { to: [], data: '' };
    socket.write('220 fake ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let index: number;
      while ((index = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            received.push(current);
            current = { to: [], data: '' };
            socket.write('250 queued\r\n');
          } else current.data += `${line}\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 fake\r\n');
        else if (verb === 'MAIL' || verb === 'RSET' || verb === 'NOOP') socket.write('250 ok\r\n');
        else if (verb === 'RCPT') {
          current.to.push(line.replace(/^RCPT TO:\s*<?([^>]*)>?.*$/i, '$1'));
          socket.write('250 ok\r\n');
        } else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        // any other verb: the reply SMTP defines for a command a server does not offer
        else socket.write('502 command unrecognized by this test server\r\n');
      }
    });
    socket.on('error', () => undefined);
  });
  return {
    received,
    get refused() {
      return refused;
    },
    listen: (port = 0) => new Promise<number>((resolve) => server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** a port nothing listens on (yet) */
async function freePort(): Promise<number> {
  const probe = fakeSmtp(0);
  const port = await probe.listen();
  await probe.close();
  return port;
}

describe.each(storageKinds())('account activation, outbox and unlock over REST (%s)', (kind: StorageKind) => {
  let app: TestApp;
  let admin: ReturnType<typeof http>;
  let policies = 0;

  beforeAll(async () => {
    app = await startTestApp(kind, MAIL_LOG_SETTINGS);
    admin = http(app.url, await signIn(app.url));
  });

  afterAll(async () => {
    await app?.destroy();
  });

  const awaiting = (overrides: Record<string, unknown> = {}) => createAccount(admin, { password: undefined, no_password: true, activation: true, ...overrides });
  const createPolicy = async (rules: Record<string, unknown> = {}) => {
    policies += 1;
    const created = await admin.post('/api/v1/policy', { title: `Activation ${Date.now().toString(36)} ${policies}`, description: '', min_length: 12, min_strength: 0, lockout: 0, lockout_duration: 600, ...rules });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return String(created.body.id);
  };
  const authenticate = (username: string, password: string) => http(app.url).post('/api/v1/admin/authenticate', { username, password });
  const statusOf = async (id: string) => (await admin.get(`/api/v1/account/${id}/auth`)).body.status_id as number;

  it('mails a single-use link; the owner sets the first password with it and signs in', async () => {
    const account = await awaiting();
    expect(await statusOf(account.id)).toBe(4);
    const mail = await waitForMail(app.config.dataDir, account.email);
    expect(mail.subject).toBe('Activate your Rollcall account');
    expect(mail.text).toContain(account.username);
    const token = await activationTokenFor(app.config.dataDir, account.email);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // the link is checked without a session, on v1 and wrapped on v2
    const info = await http(app.url).get(`/api/v1/account/activation/${token}`);
    expect(info.status, JSON.stringify(info.body)).toBe(200);
    expect(info.body).toEqual({ username: account.username, expires_at: expect.any(String), policy: null });
    expect((await http(app.url).get(`/api/v2/account/activation/${token}`)).body.data.username).toBe(account.username);
    // no password yet: sign-in fails as any other
    expect((await authenticate(account.username, PASSWORD)).status).toBe(401);

    const activated = await http(app.url).post('/api/v1/account/activate', { token, password: PASSWORD });
    expect(activated.status, JSON.stringify(activated.body)).toBe(200);
    expect(activated.body).toEqual({ message: 'Account activated', username: account.username });
    expect(await statusOf(account.id)).toBe(1);
    expect((await authenticate(account.username, PASSWORD)).status).toBe(200);

    // once only
    expect(await http(app.url).post('/api/v1/account/activate', { token, password: 'another fine password 2' })).toMatchObject(INVALID);
    expect(await http(app.url).get(`/api/v1/account/activation/${token}`)).toMatchObject(INVALID);
    expect((await authenticate(account.username, PASSWORD)).status).toBe(200);
  });

  it('never writes the clear link: not in the outbox row, not in any event (docs/adr/0008, amendment 1)', async () => {
    const account = await awaiting();
    const token = await activationTokenFor(app.config.dataDir, account.email);
    const [row] = await waitForOutbox(app, account.email, (rows) => rows.length === 1 && rows[0].status === 'sent');
    expect(row).toMatchObject({ kind: 'activation', account_id: account.id, status: 'sent', body: '', attempts: 1, last_error: null });
    expect(row.sent_at).not.toBeNull();
    const store = app.app.get<symbol, EventStore>(EVENT_STORE);
    const events = await store.readStream(`account-${account.id}`);
    expect(events.map((e) => e.type)).toEqual(['AccountCreated', 'ActivationIssued']);
    expect(JSON.stringify(events)).not.toContain(token);
  });

  it('answers unknown, malformed and expired links alike', async () => {
    expect(await http(app.url).get('/api/v1/account/activation/nothing-like-a-token')).toMatchObject(INVALID);
    expect(await http(app.url).post('/api/v1/account/activate', { token: 'A'.repeat(43), password: PASSWORD })).toMatchObject(INVALID);
    const missing = await http(app.url).post('/api/v1/account/activate', { token: 'A'.repeat(43) });
    expect(missing.status).toBe(400);
    expect(missing.body.error.fields).toHaveProperty('password');

    const shortLived = await startTestApp(kind, { ...MAIL_LOG_SETTINGS, ROLLCALL_ACTIVATION_HOURS: String(1 / 3600) });
    try {
      const account = await createAccount(http(shortLived.url, await signIn(shortLived.url)), { password: undefined, no_password: true, activation: true });
      const token = await activationTokenFor(shortLived.config.dataDir, account.email);
      expect((await http(shortLived.url).get(`/api/v1/account/activation/${token}`)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1200));
      expect(await http(shortLived.url).get(`/api/v1/account/activation/${token}`)).toMatchObject(INVALID);
      expect(await http(shortLived.url).post('/api/v1/account/activate', { token, password: PASSWORD })).toMatchObject(INVALID);
    } finally {
      await shortLived.destroy();
    }
  });

  it("enforces the account's policy on the first password, and names it on the page", async () => {
    const policyId = await createPolicy({ min_length: 14 });
    const account = await awaiting();
    expect((await admin.raw('PUT', `/api/v1/account/${account.id}/auth`, { policy_id: policyId })).status).toBe(200);
    const token = await activationTokenFor(app.config.dataDir, account.email);
    expect((await http(app.url).get(`/api/v1/account/activation/${token}`)).body.policy).toMatchObject({ min_length: 14, min_strength: 0, history: null });

    const short = await http(app.url).post('/api/v1/account/activate', { token, password: 'too short 1' });
    expect(short.status).toBe(400);
    expect(short.body.error.code).toBe('password.too_short');
    expect(Object.keys(short.body.error.fields)).toEqual(['password']);
    // the refusal used nothing up
    expect((await http(app.url).post('/api/v1/account/activate', { token, password: PASSWORD })).status).toBe(200);
  });

  it('keeps the policy of an account created without a password on REST v1, v2 and tRPC; its first password must meet it', async () => {
    const policyId = await createPolicy({ min_length: 14 });
    const ids: string[] = [];
    ids.push((await awaiting({ policy: true, policy_id: policyId })).id);
    const v2 = await admin.post('/api/v2/account', { ...newAccount(), password: undefined, no_password: true, policy: true, policy_id: policyId });
    expect(v2.status, JSON.stringify(v2.body)).toBe(201);
    ids.push(v2.body.data?.id ?? v2.body.id);
    const viaTrpc = await admin.post('/trpc/accounts.create', { ...newAccount(), password: undefined, no_password: true, policy: true, policy_id: policyId });
    expect(viaTrpc.status, JSON.stringify(viaTrpc.body)).toBe(200);
    ids.push(viaTrpc.body.result.data.id);
    for (const id of ids) expect((await admin.get(`/api/v1/account/${id}/auth`)).body).toMatchObject({ policy_id: policyId, status_id: 4 });

    // the first password, set by the owner at activation or by an administrator, follows the policy
    const [first] = ids;
    const email = (await admin.get(`/api/v1/account/${first}`)).body.email as string;
    const token = await activationTokenFor(app.config.dataDir, email);
    expect((await http(app.url).get(`/api/v1/account/activation/${token}`)).body.policy).toMatchObject({ min_length: 14 });
    expect((await http(app.url).post('/api/v1/account/activate', { token, password: 'too short 1' })).body.error.code).toBe('password.too_short');
    const set = await admin.raw('PUT', `/api/v1/account/${ids[1]}/password`, { password: 'too short 1' });
    expect([set.status, set.body.error?.code]).toEqual([400, 'password.too_short']);
  });

  it('refuses a policy_id sent without policy: true (it would be dropped), naming the field, on REST v1, v2 and tRPC', async () => {
    const policyId = await createPolicy({ min_length: 14 });
    for (const body of [
      { ...newAccount(), policy_id: policyId },
      { ...newAccount(), policy: false, policy_id: policyId },
      { ...newAccount(), password: undefined, no_password: true, policy_id: policyId },
    ]) {
      for (const path of ['/api/v1/account', '/api/v2/account']) {
        const answer = await admin.post(path, body);
        expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(400);
        expect(answer.body.error.fields.policy_id).toEqual(['policy_id applies only with policy: true; turn enforcement on or leave policy_id out']);
      }
      const viaTrpc = await admin.post('/trpc/accounts.create', body);
      expect(viaTrpc.status).toBe(400);
      expect(viaTrpc.body.error.data.apiError.fields.policy_id).toBeDefined();
      // nothing was created: the username is still free
      expect((await admin.post('/api/v1/account', { ...body, policy: true })).status).toBe(201);
    }
  });

  it('a resend kills the earlier link; only accounts awaiting activation get one', async () => {
    const account = await awaiting();
    const first = await activationTokenFor(app.config.dataDir, account.email);
    const resent = await admin.post(`/api/v2/account/${account.id}/activation`);
    expect(resent.status, JSON.stringify(resent.body)).toBe(202);
    expect(resent.body).toEqual({ data: { message: 'Activation e-mail sent' } });
    const second = await activationTokenFor(app.config.dataDir, account.email, 2);
    expect(second).not.toBe(first);
    expect(await http(app.url).get(`/api/v1/account/activation/${first}`)).toMatchObject(INVALID);
    expect(await http(app.url).post('/api/v1/account/activate', { token: first, password: PASSWORD })).toMatchObject(INVALID);
    expect((await http(app.url).post('/api/v1/account/activate', { token: second, password: PASSWORD })).status).toBe(200);

    const refused = await admin.post(`/api/v1/account/${account.id}/activation`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('activation.not_awaiting');
    expect((await http(app.url).post(`/api/v1/account/${account.id}/activation`)).status).toBe(401);
  });

  it('a password set by an administrator activates the account and kills its link', async () => {
    const account = await awaiting();
    const token = await activationTokenFor(app.config.dataDir, account.email);
    expect((await admin.raw('PUT', `/api/v1/account/${account.id}/password`, { password: PASSWORD })).status).toBe(200);
    expect(await statusOf(account.id)).toBe(1);
    expect(await http(app.url).get(`/api/v1/account/activation/${token}`)).toMatchObject(INVALID);
    expect((await authenticate(account.username, PASSWORD)).status).toBe(200);
  });

  it('welcomes an account created with a password and activation on, without a link', async () => {
    const account = await createAccount(admin, { activation: true });
    const mail = await waitForMail(app.config.dataDir, account.email);
    expect(mail.subject).toBe('Your Rollcall account');
    expect(mail.text).toContain('/login');
    expect(mail.text).not.toContain('/activate/');
    expect(await statusOf(account.id)).toBe(1);
    // no mail without the switch
    const silent = await createAccount(admin);
    await createAccount(admin, { activation: true }).then((probe) => waitForMail(app.config.dataDir, probe.email));
    expect(loggedMails(app.config.dataDir).some((m) => m.to === silent.email)).toBe(false);
  });

  it('unlocks an account locked by wrong passwords, which lets the right password in', async () => {
    const policyId = await createPolicy({ lockout: 5, lockout_duration: 3600 });
    const account = await createAccount(admin, { policy: true, policy_id: policyId, password: PASSWORD });
    expect((await admin.get(`/api/v1/account/${account.id}/auth`)).body.locked_until).toBeNull();
    for (let i = 0; i < 5; i += 1) expect((await authenticate(account.username, 'wrong password')).status).toBe(401);
    expect((await authenticate(account.username, PASSWORD)).status).toBe(401);
    const locked = (await admin.get(`/api/v2/account/${account.id}/auth`)).body.data;
    expect(Date.parse(locked.locked_until)).toBeGreaterThan(Date.now() + 3500_000);

    const unlocked = await admin.post(`/api/v1/account/${account.id}/unlock`);
    expect(unlocked.status, JSON.stringify(unlocked.body)).toBe(200);
    expect(unlocked.body).toEqual({ username: account.username, policy_id: policyId, status_id: 1, locked_until: null });
    expect((await authenticate(account.username, PASSWORD)).status).toBe(200);
    // the count starts again from zero: four more wrong ones do not lock
    for (let i = 0; i < 4; i += 1) await authenticate(account.username, 'wrong password');
    expect((await authenticate(account.username, PASSWORD)).status).toBe(200);
    expect((await admin.post(`/api/v1/account/${account.id}/unlock`)).status).toBe(200);
    expect((await http(app.url).post(`/api/v1/account/${account.id}/unlock`)).status).toBe(401);
  });

  it('retries a failing mail server with backoff and sends once it answers', async () => {
    const smtp = fakeSmtp(2);
    const port = await smtp.listen();
    const mailing = await startTestApp(kind, { ROLLCALL_SMTP_URL: `smtp://127.0.0.1:${port}`, ROLLCALL_MAIL_POLL_MS: '20', ROLLCALL_MAIL_RETRY_BASE_MS: '20', ROLLCALL_MAIL_FROM: 'Rollcall <no-reply@rollcall.test>' });
    try {
      const account = await createAccount(http(mailing.url, await signIn(mailing.url)), { password: undefined, no_password: true, activation: true });
      const [row] = await waitForOutbox(mailing, account.email, (rows) => rows[0]?.status === 'sent');
      expect(row).toMatchObject({ attempts: 3, body: '', last_error: null });
      expect(smtp.refused).toBe(2);
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0].to).toEqual([account.email]);
      expect(smtp.received[0].data).toContain('/activate/');
    } finally {
      await mailing.destroy();
      await smtp.close();
    }
  });

  it('gives a mail up after the last attempt and clears its link', async () => {
    const mailing = await startTestApp(kind, { ROLLCALL_SMTP_URL: `smtp://127.0.0.1:${await freePort()}`, ROLLCALL_MAIL_POLL_MS: '20', ROLLCALL_MAIL_RETRY_BASE_MS: '10', ROLLCALL_MAIL_MAX_ATTEMPTS: '3' });
    try {
      const account = await createAccount(http(mailing.url, await signIn(mailing.url)), { password: undefined, no_password: true, activation: true });
      const [row] = await waitForOutbox(mailing, account.email, (rows) => rows[0]?.status === 'failed');
      expect(row).toMatchObject({ attempts: 3, body: '' });
      expect(row.last_error).toBeTruthy();
    } finally {
      await mailing.destroy();
    }
  });

  it('a resend drops an unsent earlier mail and its link', async () => {
    const mailing = await startTestApp(kind, { ROLLCALL_SMTP_URL: `smtp://127.0.0.1:${await freePort()}`, ROLLCALL_MAIL_POLL_MS: '20', ROLLCALL_MAIL_RETRY_BASE_MS: '600000' });
    try {
      const client = http(mailing.url, await signIn(mailing.url));
      const account = await createAccount(client, { password: undefined, no_password: true, activation: true });
      await waitForOutbox(mailing, account.email, (rows) => rows[0]?.attempts === 1);
      expect((await client.post(`/api/v1/account/${account.id}/activation`)).status).toBe(202);
      const rows = await waitForOutbox(mailing, account.email, (found) => found.length === 2);
      expect(rows[0]).toMatchObject({ status: 'superseded', body: '' });
      expect(rows[1]).toMatchObject({ status: 'pending' });
      // the pending row holds the mark where the link goes, never the link
      expect(rows[1].body).toContain(ACTIVATION_LINK_MARK);
      expect(rows[1].body).not.toContain('/activate/');
    } finally {
      await mailing.destroy();
    }
  });

  it('keeps a pending mail across a restart and never sends a sent one again', async () => {
    const port = await freePort();
    const smtp = fakeSmtp(0);
    let mailing = await startTestApp(kind, { ROLLCALL_SMTP_URL: `smtp://127.0.0.1:${port}`, ROLLCALL_MAIL_POLL_MS: '20', ROLLCALL_MAIL_RETRY_BASE_MS: '50', ROLLCALL_MAIL_MAX_ATTEMPTS: '1000' });
    try {
      const account = await createAccount(http(mailing.url, await signIn(mailing.url)), { password: undefined, no_password: true, activation: true });
      // the server is down: the row waits without its link, whose token this process holds in memory only
      const [pending] = await waitForOutbox(mailing, account.email, (rows) => rows[0]?.attempts >= 1);
      expect(pending.status).toBe('pending');
      expect(pending.body).toContain(ACTIVATION_LINK_MARK);
      expect(pending.body).not.toContain('/activate/');
      // as a version before amendment 1 of docs/adr/0008 wrote it: the clear link in the row
      const legacyToken = 'L'.repeat(43);
      const legacy = pending.body.replace(ACTIVATION_LINK_MARK, `http://rollcall.test/activate/${legacyToken}`).replace(ACTIVATION_EXPIRY_MARK, '2026-01-01 00:00');
      await mailing.app.get<symbol, Kysely<ReadDatabase>>(READ_DB).updateTable('mail_outbox_v1').set({ body: legacy }).where('id', '=', pending.id).execute();
      await mailing.stop();

      await smtp.listen(port);
      mailing = await mailing.restart();
      await waitForOutbox(mailing, account.email, (rows) => rows[0]?.status === 'sent');
      expect(smtp.received).toHaveLength(1);

      await mailing.stop();
      mailing = await mailing.restart();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(smtp.received).toHaveLength(1);
      // the restart lost the token: the sender issued a new link (by the system), and the link that left works
      const issued = (await mailing.app.get<symbol, EventStore>(EVENT_STORE).readStream(`account-${account.id}`)).filter((event) => event.type === 'ActivationIssued');
      expect(issued.map((event) => event.metadata.actorKind)).toEqual(['account', 'system']);
      const text = smtp.received[0].data.replace(/=\n/g, '');
      // the legacy row's link was dropped at start, never mailed
      expect(text).not.toContain(legacyToken);
      expect(text).not.toContain('2026-01-01 00:00');
      expect(text).not.toContain(ACTIVATION_LINK_MARK);
      expect(text).not.toContain(ACTIVATION_EXPIRY_MARK);
      const token = /\/activate\/([A-Za-z0-9_-]+)/.exec(text)?.[1];
      expect((await http(mailing.url).post('/api/v1/account/activate', { token, password: PASSWORD })).status).toBe(200);
    } finally {
      await mailing.destroy();
      await smtp.close();
    }
  });

  it('creating many accounts with activation mails each once', async () => {
    const accounts = await Promise.all(Array.from({ length: 8 }, () => awaiting()));
    for (const account of accounts) await waitForMail(app.config.dataDir, account.email);
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const account of accounts) expect(loggedMails(app.config.dataDir).filter((m) => m.to === account.email)).toHaveLength(1);
  });
});
