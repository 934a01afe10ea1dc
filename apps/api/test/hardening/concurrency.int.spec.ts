import { accountStream, smartCardStream } from '@rollcall/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, http, newAccount, signIn, startTestApp, storageKinds, type TestApp } from '../test-app';
import { restErrorProblem, streamOf } from './hardening-helpers';

/**
 * Concurrency (docs/security.md, "3. Concurrency"), against the real app over HTTP on each storage engine:
 * parallel conflicting commands on one stream, parallel creations of one username and one card UID,
 * and the lockout under a crowd of wrong passwords. The event store is read afterwards: what the
 * answers claim must be exactly what was written, with stream versions 0..n-1 and no gap.
 */

type Answer = { status: number; body: { error?: { code: string } } };

/** fires all calls at once and sorts the answers by `status code` */
async function crowd(calls: Array<() => Promise<Answer>>): Promise<{ answers: Answer[]; tally: Record<string, number> }> {
  const answers = await Promise.all(calls.map((call) => call()));
  const tally: Record<string, number> = {};
  for (const answer of answers) {
    const key = `${answer.status}${answer.body?.error?.code ? ` ${answer.body.error.code}` : ''}`;
    tally[key] = (tally[key] ?? 0) + 1;
  }
  return { answers, tally };
}

const ok = (answer: Answer) => answer.status >= 200 && answer.status < 300;

async function expectContiguous(app: TestApp, streamId: string) {
  const events = await streamOf(app, streamId);
  expect(events.map((event) => event.streamVersion)).toEqual(events.map((_, index) => index));
  return events;
}

describe.each(storageKinds())('concurrency (%s)', (kind) => {
  let app: TestApp;
  let admin: ReturnType<typeof http>;

  beforeAll(async () => {
    // 50 parallel wrong passwords for one account from one address test the lockout's count, not the
    // sign-in throttle (10 failures per username and address), which would answer most of them 429
    app = await startTestApp(kind, { ROLLCALL_SIGNIN_USERNAME_FAILURES: '1000' });
    admin = http(app.url, await signIn(app.url));
  });
  afterAll(async () => {
    await app?.destroy();
  });

  it('20 parallel profile changes of one account: each wins or gets 409, and every win is exactly one event', async () => {
    const account = await createAccount(admin);
    const before = await streamOf(app, accountStream(account.id));
    const { answers, tally } = await crowd(
      Array.from({ length: 20 }, (_, i) => () => admin.raw('PUT', `/api/v1/account/${account.id}`, { first_name: `Racer ${i}`, last_name: account.last_name, email: account.email })),
    );
    console.log(`profile changes (${kind}): ${JSON.stringify(tally)}`);
    for (const answer of answers.filter((a) => !ok(a))) {
      expect(answer.status).toBe(409);
      expect(answer.body.error?.code).toBe('stream.version_conflict');
      expect(restErrorProblem(answer.body)).toBeNull();
    }
    const wins = answers.filter(ok).length;
    expect(wins).toBeGreaterThanOrEqual(1);
    const events = await expectContiguous(app, accountStream(account.id));
    expect(events.length - before.length, 'one event per 2xx, none for a 409').toBe(wins);
    // the read model shows the last write that won
    const last = events[events.length - 1].data as { firstName?: string; first_name?: string };
    expect((await admin.get(`/api/v1/account/${account.id}`)).body.first_name).toBe(last.firstName ?? last.first_name);
  });

  it('20 parallel deletions of one account: exactly one wins, the others get 409 or 404', async () => {
    const account = await createAccount(admin);
    const { answers, tally } = await crowd(Array.from({ length: 20 }, () => () => admin.raw('DELETE', `/api/v1/account/${account.id}`)));
    console.log(`deletions (${kind}): ${JSON.stringify(tally)}`);
    expect(answers.filter(ok)).toHaveLength(1);
    for (const answer of answers.filter((a) => !ok(a))) {
      expect([`409 stream.version_conflict`, `404 account.not_found`]).toContain(`${answer.status} ${answer.body.error?.code}`);
    }
    const events = await expectContiguous(app, accountStream(account.id));
    expect(events.filter((event) => event.type === 'AccountDeleted')).toHaveLength(1);
  });

  it('20 parallel creations of one username: exactly one account', async () => {
    const username = newAccount().username;
    const { answers, tally } = await crowd(Array.from({ length: 20 }, (_, i) => () => admin.post('/api/v1/account', newAccount({ username, email: `racer.${i}.${username}@example.com` }))));
    console.log(`creations of one username (${kind}): ${JSON.stringify(tally)}`);
    expect(answers.filter(ok)).toHaveLength(1);
    for (const answer of answers.filter((a) => !ok(a))) {
      expect(`${answer.status} ${answer.body.error?.code}`).toBe('409 account.username_taken');
      expect(restErrorProblem(answer.body)).toBeNull();
    }
    const found = (await admin.get(`/api/v1/accounts?search=${encodeURIComponent(username)}`)).body.data as Array<{ username: string }>;
    expect(found.filter((row) => row.username.toLowerCase() === username.toLowerCase())).toHaveLength(1);
  });

  it('20 parallel registrations of one card UID to 20 accounts: exactly one holds it', async () => {
    const accounts = [];
    for (let i = 0; i < 20; i += 1) accounts.push(await createAccount(admin));
    const cardUid = `04${Date.now().toString(16).toUpperCase().slice(-10)}`;
    const { answers, tally } = await crowd(accounts.map((account) => () => admin.post('/api/v2/scanner/unknown-cards/assign', { card_uid: cardUid, account_id: account.id })));
    console.log(`registrations of one card UID (${kind}): ${JSON.stringify(tally)}`);
    expect(answers.filter(ok)).toHaveLength(1);
    for (const answer of answers.filter((a) => !ok(a))) {
      expect(`${answer.status} ${answer.body.error?.code}`).toBe('409 smart_card.taken');
      expect(restErrorProblem(answer.body)).toBeNull();
    }
    const events = await expectContiguous(app, smartCardStream(cardUid));
    expect(events.filter((event) => event.type === 'SmartCardRegistered')).toHaveLength(1);
    let holders = 0;
    for (const account of accounts) holders += ((await admin.get(`/api/v2/account/${account.id}/smartcards`)).body.data.data as unknown[]).length;
    expect(holders).toBe(1);
  });

  it('50 parallel wrong passwords: at most the policy limit is counted, then the account is locked', async () => {
    const LIMIT = 5;
    const policy = await admin.post('/api/v1/policy', { title: `Lockout ${Date.now()} ${kind}`, min_length: 8, min_strength: 0, lockout: LIMIT, lockout_duration: 3600 });
    expect(policy.status).toBe(201);
    const account = await createAccount(admin, { policy_id: policy.body.id, policy: true });
    const { answers, tally } = await crowd(Array.from({ length: 50 }, () => () => http(app.url).post('/api/v1/admin/authenticate', { username: account.username, password: 'wrong password 123' })));
    console.log(`parallel wrong passwords (${kind}): ${JSON.stringify(tally)}`);
    // every attempt gets the one answer of a refused sign-in, whether counted, locked or raced
    expect(new Set(answers.map((answer) => JSON.stringify([answer.status, answer.body])))).toEqual(new Set([JSON.stringify([401, answers[0].body])]));
    expect(answers[0].body.error?.code).toBe('auth.invalid_credentials');
    const events = await expectContiguous(app, accountStream(account.id));
    const failures = events.filter((event) => event.type === 'SignInFailed').length;
    console.log(`counted failures: ${failures} of 50 (limit ${LIMIT})`);
    expect(failures).toBe(LIMIT);
    expect(events.filter((event) => event.type === 'AccountLocked')).toHaveLength(1);
    expect((await admin.get(`/api/v1/account/${account.id}/auth`)).body.locked_until).toEqual(expect.any(String));
    // the right password is refused while locked, with the same answer
    const right = await http(app.url).post('/api/v1/admin/authenticate', { username: account.username, password: account.password });
    expect([right.status, right.body]).toEqual([401, answers[0].body]);
  });
});
