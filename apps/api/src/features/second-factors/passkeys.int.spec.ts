import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReadDatabase } from '../../platform/read-db/read-database';
import { READ_DB } from '../../platform/tokens';
import { SoftwareAuthenticator } from '../../../test/software-authenticator';
import { boundToSignIn } from '../auth/second-factor/passkey-ceremonies';
import { createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';

/**
 * Passkeys end to end over the real app (docs/adr/0029), with a software authenticator that signs
 * for real (test/software-authenticator.ts), so SimpleWebAuthn's verification runs as with a
 * browser: registration with a name, the list, rename and removal (after a confirmation), the second
 * step of a sign-in with a passkey on tRPC, single-use challenges bound to their sign-in, a foreign
 * origin refused, the lockout counting refused passkeys, and a sign-in with a passkey alone where
 * the policy allows it.
 */
describe.each(storageKinds())('passkeys (%s)', (kind) => {
  let app: TestApp;
  let admin: ReturnType<typeof http>;
  let origin: string;
  beforeAll(async () => {
    app = await startTestApp(kind, { ROLLCALL_TRUSTED_PROXIES: 'loopback' });
    // the browser's address: localhost, as a WebAuthn relying party id must be a host name (and every call goes there: its Origin names the Host)
    origin = app.url.replace('127.0.0.1', 'localhost');
    admin = http(origin, await signIn(app.url));
  });
  afterAll(async () => {
    await app?.destroy();
  });

  let address = 0;
  /** each call from an address of its own (the throttle), from the console's origin */
  const browser = () => ({ origin, 'x-forwarded-for': `10.8.${Math.floor(address / 250)}.${(address++ % 250) + 1}` });
  const trpc = (client: ReturnType<typeof http>, procedure: string, input?: unknown) => client.post(`/trpc/${procedure}`, input ?? '', { ...browser(), 'content-type': 'application/json' });
  const data = (answer: { status: number; body: { result?: { data: unknown } } }) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.result!.data as Record<string, unknown> & { options: { challenge: string; rp: { id: string }; user: { id: string }; rpId: string; allowCredentials?: Array<{ id: string }> } };
  };

  async function policy(passkeySignIn: boolean): Promise<string> {
    const created = await admin.post('/api/v2/policy', { title: `Passkeys ${passkeySignIn} ${Date.now().toString(36)}${address++}`, min_length: 6, min_strength: 0, lockout: 3, lockout_duration: 60, passkey_sign_in: passkeySignIn });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.passkey_sign_in ?? (await admin.get(`/api/v2/policy/${created.body.data.id}`)).body.data.passkey_sign_in).toBe(passkeySignIn);
    return created.body.data.id as string;
  }

  /** an account with one registered passkey (named `name`), its session and its authenticator */
  async function withPasskey(overrides: Record<string, unknown> = {}, name = 'Laptop', verifiesUser = true) {
    const account = await createAccount(admin, overrides);
    const session = http(origin, await signIn(app.url, { username: account.username, password: account.password }));
    const authenticator = new SoftwareAuthenticator(origin, verifiesUser);
    const { options } = data(await trpc(session, 'secondFactors.passkeyRegistrationOptions', {}));
    const registered = data(await trpc(session, 'secondFactors.registerPasskey', { name, response: authenticator.register(options) }));
    return { account, session, authenticator, passkeyId: registered.id as string, recoveryCodes: registered.recovery_codes as string[] };
  }

  /** the password step, then the passkey step's options: the sign-in challenge and the WebAuthn options */
  async function passwordStep(account: { username: string; password: string }) {
    const first = data(await trpc(http(origin), 'auth.signIn', { username: account.username, password: account.password }));
    expect(first.status).toBe('second_factor_required');
    const { challenge, methods } = first.second_factor as { challenge: string; methods: string[] };
    expect(methods).toContain('passkey');
    const { options } = data(await trpc(http(origin), 'auth.passkeyStepOptions', { challenge }));
    return { challenge, options };
  }

  it('registers named passkeys for real (SimpleWebAuthn verifies the attestation), lists and renames them; the first brings ten recovery codes', async () => {
    const { account, session, authenticator, passkeyId, recoveryCodes } = await withPasskey();
    expect(recoveryCodes).toHaveLength(10);
    const second = new SoftwareAuthenticator(origin);
    // a second passkey beside the first needs a current factor (review R24 F3): a stolen session alone plants none
    const unconfirmed = await trpc(session, 'secondFactors.passkeyRegistrationOptions', {});
    expect(unconfirmed.body.error.data.apiError.code).toBe('second_factor.confirmation_required');
    expect((await session.post('/api/v2/second-factors/passkeys/registration-options', undefined, browser())).body.error.code).toBe('second_factor.confirmation_required');
    expect((await session.post('/api/v2/second-factors/passkeys/registration-options', { code: '000000' }, browser())).body.error.code).toBe('second_factor.confirmation_invalid');
    const confirmWith = data(await trpc(session, 'secondFactors.confirmationOptions'));
    const { options } = data(await trpc(session, 'secondFactors.passkeyRegistrationOptions', { confirmation: { passkey: authenticator.assert(confirmWith.options) } }));
    // the registered one is excluded, so the browser does not register it twice
    expect((options as unknown as { excludeCredentials: Array<{ id: string }> }).excludeCredentials.map((c) => c.id)).toEqual([authenticator.id]);
    expect(options.rp.id).toBe('localhost');
    // a name another passkey has is refused under `name`
    const taken = await trpc(session, 'secondFactors.registerPasskey', { name: 'laptop', response: second.register(options) });
    expect(taken.body.error.data.apiError.code).toBe('second_factor.passkey_name_taken');
    expect(Object.keys(taken.body.error.data.apiError.fields)).toEqual(['name']);
    // that challenge was taken by the refused call: it registers nothing any more
    const again = await trpc(session, 'secondFactors.registerPasskey', { name: 'Phone', response: second.register(options) });
    expect(again.body.error.data.apiError.code).toBe('second_factor.passkey_invalid');
    const fresh = data(await trpc(session, 'secondFactors.passkeyRegistrationOptions', { confirmation: { code: recoveryCodes[0] } }));
    const phone = data(await trpc(session, 'secondFactors.registerPasskey', { name: 'Phone', response: second.register(fresh.options) }));
    expect(phone.recovery_codes).toBeNull();

    data(await trpc(session, 'secondFactors.renamePasskey', { id: passkeyId, name: 'Work laptop' }));
    const status = (await session.get('/api/v2/second-factors')).body.data;
    expect(status.factors.map((f: { kind: string; name: string }) => [f.kind, f.name])).toEqual([['passkey', 'Work laptop'], ['passkey', 'Phone']]);
    // the history shows names, never the credential
    const history = await admin.get(`/api/v2/account/${account.id}/history?limit=100`);
    expect(history.status).toBe(200);
    expect(JSON.stringify(history.body)).toContain('Passkey renamed to \\"Work laptop\\"');
    expect(JSON.stringify(history.body)).toContain('Passkey \\"Phone\\" registered');
    expect(JSON.stringify(history.body)).not.toContain(authenticator.id);
    // a bad name: 400 naming the field
    const blank = await session.raw('PATCH', `/api/v2/second-factors/passkeys/${passkeyId}`, { name: '  ' });
    expect(blank.status).toBe(400);
    expect(JSON.stringify(blank.body)).toContain('name');
  });

  it('signs in with a passkey as the second factor; the assertion answers once, for its own sign-in and origin only', async () => {
    const { account, authenticator } = await withPasskey();
    const { challenge, options } = await passwordStep(account);
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([authenticator.id]);
    // another site's page cannot use it (clientDataJSON names its origin)
    const foreign = authenticator.assert(options, 'http://evil.example');
    const refused = await trpc(http(origin), 'auth.completeSignInWithPasskey', { challenge, passkey: foreign });
    expect(refused.status).toBe(401);
    expect(refused.body.error.data.apiError.code).toBe('auth.second_factor_invalid');

    const next = await passwordStep(account);
    const assertion = authenticator.assert(next.options);
    // bound to its sign-in challenge: another sign-in's challenge does not take it
    const other = await passwordStep(account);
    expect((await trpc(http(origin), 'auth.completeSignInWithPasskey', { challenge: other.challenge, passkey: assertion })).status).toBe(401);
    const signedIn = data(await trpc(http(origin), 'auth.completeSignInWithPasskey', { challenge: next.challenge, passkey: authenticator.assert(next.options) }));
    expect(signedIn.status).toBe('signed_in');
    // once: the same challenge again answers nothing
    expect((await trpc(http(origin), 'auth.completeSignInWithPasskey', { challenge: next.challenge, passkey: authenticator.assert(next.options) })).status).toBe(401);
    // REST's second step takes codes (docs/compat.md): a passkey there is a 400 naming the field
    const rest = await http(origin).post('/api/v2/admin/authenticate', { challenge: next.challenge, passkey: assertion }, browser());
    expect(rest.status).toBe(400);
  });

  it('gives no passkey step options for a spent challenge or one from before a password change, and stores no ceremony for it (review R24c)', async () => {
    const { account, authenticator, recoveryCodes } = await withPasskey();
    const db = app.app.get<Kysely<ReadDatabase>>(READ_DB);
    const ceremonies = (challenge: string) => db.selectFrom('passkey_ceremonies').select('challenge').where('bound_to', '=', boundToSignIn(challenge)).execute();
    const refused = async (challenge: string) => {
      const answer = await trpc(http(origin), 'auth.passkeyStepOptions', { challenge });
      expect(answer.status, JSON.stringify(answer.body)).toBe(401);
      expect(answer.body.error.data.apiError.code).toBe('auth.second_factor_invalid');
      expect(JSON.stringify(answer.body)).not.toContain(authenticator.id);
      expect(await ceremonies(challenge)).toEqual([]);
    };
    // spent by a recovery code
    const spent = await passwordStep(account);
    data(await trpc(http(origin), 'auth.completeSignIn', { challenge: spent.challenge, code: recoveryCodes[0] }));
    await db.deleteFrom('passkey_ceremonies').where('bound_to', '=', boundToSignIn(spent.challenge)).execute();
    await refused(spent.challenge);
    // voided: the password changed since its first step
    const voided = await passwordStep(account);
    await db.deleteFrom('passkey_ceremonies').where('bound_to', '=', boundToSignIn(voided.challenge)).execute();
    expect((await admin.raw('PUT', `/api/v1/account/${account.id}/password`, { password: 'a new pass phrase of 2026' })).status).toBe(200);
    await refused(voided.challenge);
    // a live challenge still gets them
    const live = await passwordStep({ username: account.username, password: 'a new pass phrase of 2026' });
    expect(live.options.allowCredentials?.map((c) => c.id)).toEqual([authenticator.id]);
  });

  it('counts refused passkeys like wrong codes: the policy locks the account', async () => {
    const { account, authenticator } = await withPasskey({ policy: true, policy_id: await policy(false) });
    for (let attempt = 0; attempt < 3; attempt++) {
      const { challenge, options } = await passwordStep(account);
      const refused = await trpc(http(origin), 'auth.completeSignInWithPasskey', { challenge, passkey: authenticator.assert(options, 'http://evil.example') });
      expect(refused.status).toBe(401);
    }
    // locked: even the right password is refused now
    const locked = await trpc(http(origin), 'auth.signIn', { username: account.username, password: account.password });
    expect(locked.status).toBe(401);
    expect(locked.body.error.data.apiError.code).toBe('auth.invalid_credentials');
  });

  it('removing a passkey, the app or replacing the recovery codes asks for a current code or passkey first', async () => {
    const { session, authenticator, passkeyId, recoveryCodes } = await withPasskey();
    const unconfirmed = await session.raw('DELETE', `/api/v2/second-factors/passkeys/${passkeyId}`);
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body.error).toMatchObject({ code: 'second_factor.confirmation_required' });
    const wrong = await session.raw('DELETE', `/api/v2/second-factors/passkeys/${passkeyId}`, { code: '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ code: 'second_factor.confirmation_invalid' });
    const regenerated = await session.post('/api/v2/second-factors/recovery-codes', {});
    expect(regenerated.body.error.code).toBe('second_factor.confirmation_required');
    expect((await session.post('/api/v2/second-factors/recovery-codes', { code: recoveryCodes[0] })).status).toBe(200);

    // with the passkey itself: options bound to this session
    const { options } = data(await trpc(session, 'secondFactors.confirmationOptions'));
    const removed = await trpc(session, 'secondFactors.removePasskey', { id: passkeyId, confirmation: { passkey: authenticator.assert(options) } });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const status = (await session.get('/api/v2/second-factors')).body.data;
    expect(status.factors).toEqual([]);
    // the last factor took the recovery codes along
    expect(status.recovery_codes.remaining).toBe(0);
  });

  it('adding an authenticator app beside a passkey asks for a current factor first (review R24 F3)', async () => {
    const { session, authenticator, recoveryCodes } = await withPasskey();
    const unconfirmed = await session.post('/api/v2/second-factors/totp', undefined, browser());
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body.error).toMatchObject({ code: 'second_factor.confirmation_required', fields: { code: [expect.any(String)] } });
    expect((await trpc(session, 'secondFactors.startTotp', {})).body.error.data.apiError.code).toBe('second_factor.confirmation_required');
    expect((await session.post('/api/v2/second-factors/totp', { code: '000000' }, browser())).body.error.code).toBe('second_factor.confirmation_invalid');
    expect((await session.get('/api/v2/second-factors')).body.data.totp_pending).toBe(false);
    // a recovery code, or the passkey itself, confirms
    const withCode = await session.post('/api/v2/second-factors/totp', { code: recoveryCodes[0] }, browser());
    expect(withCode.status, JSON.stringify(withCode.body)).toBe(201);
    const { options } = data(await trpc(session, 'secondFactors.confirmationOptions'));
    const withPasskeyConfirmation = await trpc(session, 'secondFactors.startTotp', { confirmation: { passkey: authenticator.assert(options) } });
    expect(withPasskeyConfirmation.status, JSON.stringify(withPasskeyConfirmation.body)).toBe(200);
  });

  it('registers a credential to one account only, also when two registrations of it race: one 2xx, one 409; a removal or a reset frees it', async () => {
    /** an account's session and registration options, ready to answer with `authenticator` */
    const prepared = async () => {
      const account = await createAccount(admin);
      const session = http(origin, await signIn(app.url, { username: account.username, password: account.password }));
      const { options } = data(await trpc(session, 'secondFactors.passkeyRegistrationOptions', {}));
      return { account, session, options };
    };
    const register = ({ session, options }: Awaited<ReturnType<typeof prepared>>, authenticator: SoftwareAuthenticator) =>
      trpc(session, 'secondFactors.registerPasskey', { name: 'Shared key', response: authenticator.register(options) });
    // a few rounds, each with a credential of its own: the read model alone lets a race through
    for (let round = 0; round < 3; round += 1) {
      const authenticator = new SoftwareAuthenticator(origin);
      const [first, second] = await Promise.all([prepared(), prepared()]);
      const answers = await Promise.all([register(first, authenticator), register(second, authenticator)]);
      expect(answers.map((answer) => answer.status).sort(), JSON.stringify(answers.map((answer) => answer.body))).toEqual([200, 409]);
      expect(answers.find((answer) => answer.status === 409)!.body.error.data.apiError.code).toBe('second_factor.passkey_registered');
      const [winner, loser] = answers[0].status === 200 ? [first, second] : [second, first];
      expect((await winner.session.get('/api/v2/second-factors')).body.data.factors).toHaveLength(1);
      expect((await loser.session.get('/api/v2/second-factors')).body.data.factors).toEqual([]);
    }

    // removed by its account, the credential may be registered to another
    const authenticator = new SoftwareAuthenticator(origin);
    const owner = await prepared();
    const registered = data(await register(owner, authenticator));
    const removed = await owner.session.raw('DELETE', `/api/v2/second-factors/passkeys/${String(registered.id)}`, { code: (registered.recovery_codes as string[])[0] });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const next = await prepared();
    data(await register(next, authenticator));
    // reset by an administrator, the same
    const reset = await admin.post(`/api/v2/account/${next.account.id}/second-factors/reset`, { reason: 'Lost laptop' });
    expect(reset.status, JSON.stringify(reset.body)).toBeLessThan(300);
    data(await register(await prepared(), authenticator));
  });

  it('signs in with a passkey alone where the policy allows it, and only there', async () => {
    const allowed = await withPasskey({ policy: true, policy_id: await policy(true) });
    expect(data(await http(origin).get('/trpc/auth.passkeySignInOffered')).offered).toBe(true);
    const { options } = data(await trpc(http(origin), 'auth.passkeySignInOptions'));
    // no account named: the browser offers its discoverable passkeys, and must verify its user
    expect(options.allowCredentials ?? []).toEqual([]);
    expect((options as unknown as { userVerification: string }).userVerification).toBe('required');
    const signedIn = data(await trpc(http(origin), 'auth.signInWithPasskey', { passkey: allowed.authenticator.assert(options) }));
    expect(signedIn.status).toBe('signed_in');
    expect((signedIn.account as { id: string }).id).toBe(allowed.account.id);

    // an authenticator that does not verify its user is not enough alone
    const presenceOnly = await withPasskey({ policy: true, policy_id: await policy(true) }, 'Key', false);
    const weakOptions = data(await trpc(http(origin), 'auth.passkeySignInOptions')).options;
    expect((await trpc(http(origin), 'auth.signInWithPasskey', { passkey: presenceOnly.authenticator.assert(weakOptions) })).status).toBe(401);

    const notAllowed = await withPasskey({ policy: true, policy_id: await policy(false) });
    const again = data(await trpc(http(origin), 'auth.passkeySignInOptions'));
    const refused = await trpc(http(origin), 'auth.signInWithPasskey', { passkey: notAllowed.authenticator.assert(again.options) });
    expect(refused.status).toBe(403);
    expect(refused.body.error.data.apiError.code).toBe('auth.passkey_sign_in_not_allowed');
  });
});

/**
 * R24 findings 6 and 7: the anonymous options of a sign-in with a passkey alone answer only where a
 * policy offers it, and under the address's sign-in throttle before any challenge is kept; the
 * sign-in checks the assertion before the policy (no oracle), and a policy's refusal counts in the
 * throttle. A small throttle window (4 failures per address) makes the limits reachable.
 */
describe('passkey sign-in under the throttle (sqlite)', () => {
  let app: TestApp;
  let admin: ReturnType<typeof http>;
  let origin: string;
  beforeAll(async () => {
    app = await startTestApp('sqlite', { ROLLCALL_TRUSTED_PROXIES: 'loopback', ROLLCALL_SIGNIN_ADDRESS_FAILURES: '4', ROLLCALL_SIGNIN_ADDRESS_WINDOW_SECONDS: '600' });
    origin = app.url.replace('127.0.0.1', 'localhost');
    admin = http(origin, await signIn(app.url));
  });
  afterAll(async () => {
    await app?.destroy();
  });

  let address = 0;
  const newAddress = () => `10.7.${Math.floor(address / 250)}.${(address++ % 250) + 1}`;
  const trpc = (procedure: string, input?: unknown, from = newAddress(), client = http(origin)) =>
    client.post(`/trpc/${procedure}`, input ?? {}, { origin, 'x-forwarded-for': from, 'content-type': 'application/json' });
  const ceremonies = async () => Number((await app.app.get<Kysely<ReadDatabase>>(READ_DB).selectFrom('passkey_ceremonies').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const optionsOf = async (from?: string) => {
    const answer = await trpc('auth.passkeySignInOptions', undefined, from);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.result.data.options as { challenge: string; rpId?: string };
  };
  const policy = async (passkeySignIn: boolean) => {
    const created = await admin.post('/api/v2/policy', { title: `Throttled passkeys ${passkeySignIn} ${Date.now().toString(36)}${address++}`, min_length: 6, min_strength: 0, lockout: 3, lockout_duration: 60, passkey_sign_in: passkeySignIn });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.data.id as string;
  };

  it('refuses the options where no policy offers the sign-in and throttles them per address before a challenge is kept; checks the assertion before the policy, whose refusal counts', async () => {
    // no policy offers it: 403, nothing kept
    const before = await ceremonies();
    const none = await trpc('auth.passkeySignInOptions');
    expect([none.status, none.body.error?.data.apiError.code]).toEqual([403, 'auth.passkey_sign_in_not_allowed']);
    expect(await ceremonies()).toBe(before);

    // offered: four options from one address, then 429 and no row more
    const notAllowedPolicy = await policy(false);
    await policy(true);
    const flooding = newAddress();
    for (let i = 0; i < 4; i += 1) await optionsOf(flooding);
    const kept = await ceremonies();
    for (let i = 0; i < 3; i += 1) {
      const flood = await trpc('auth.passkeySignInOptions', undefined, flooding);
      expect([flood.status, flood.body.error?.data.apiError.code]).toEqual([429, 'rate.limited']);
    }
    expect(await ceremonies()).toBe(kept);
    // another address is not held by it
    await optionsOf();

    // an account whose policy does not allow a passkey alone, with a real passkey
    const account = await createAccount(admin, { policy: true, policy_id: notAllowedPolicy });
    const session = http(origin, await signIn(app.url, { username: account.username, password: account.password }));
    const authenticator = new SoftwareAuthenticator(origin);
    const registration = await trpc('secondFactors.passkeyRegistrationOptions', undefined, undefined, session);
    expect(registration.status, JSON.stringify(registration.body)).toBe(200);
    const registered = await trpc('secondFactors.registerPasskey', { name: 'Laptop', response: authenticator.register(registration.body.result.data.options) }, undefined, session);
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);

    // a forged assertion (its real credential id and user handle, a broken signature) answers as any refused passkey, not with the policy
    const forged = authenticator.assert(await optionsOf());
    const signature = Buffer.from(forged.response.signature, 'base64url');
    signature[signature.length - 1] ^= 0xff;
    const refused = await trpc('auth.signInWithPasskey', { passkey: { ...forged, response: { ...forged.response, signature: signature.toString('base64url') } } });
    expect([refused.status, refused.body.error?.data.apiError.code]).toEqual([401, 'auth.second_factor_invalid']);

    // a valid one: the policy's 403, counted in the throttle (the fifth from one address answers 429)
    const signingIn = newAddress();
    for (let i = 0; i < 4; i += 1) {
      const notAllowed = await trpc('auth.signInWithPasskey', { passkey: authenticator.assert(await optionsOf()) }, signingIn);
      expect([notAllowed.status, notAllowed.body.error?.data.apiError.code], `attempt ${i + 1}`).toEqual([403, 'auth.passkey_sign_in_not_allowed']);
    }
    const throttled = await trpc('auth.signInWithPasskey', { passkey: authenticator.assert(await optionsOf()) }, signingIn);
    expect([throttled.status, throttled.body.error?.data.apiError.code]).toEqual([429, 'rate.limited']);
  });

  it('takes the relying party only from an Origin naming the Host the request came to (R24 finding 8)', async () => {
    await policy(true);
    const session = http(origin, await signIn(app.url));
    for (const foreign of ['https://evil.example', app.url]) {
      // evil.example, and 127.0.0.1 while the request went to localhost
      const headers = { origin: foreign, 'x-forwarded-for': newAddress(), 'content-type': 'application/json' };
      const options = await session.post('/trpc/secondFactors.passkeyRegistrationOptions', {}, headers);
      expect([options.status, options.body.error?.data.apiError.code], foreign).toEqual([400, 'second_factor.passkey_origin_unknown']);
      const rest = await session.post('/api/v2/second-factors/passkeys/registration-options', undefined, { origin: foreign });
      expect([rest.status, rest.body.error?.code], foreign).toEqual([400, 'second_factor.passkey_origin_unknown']);
      const signInOptions = await http(origin).post('/trpc/auth.passkeySignInOptions', {}, headers);
      expect([signInOptions.status, signInOptions.body.error?.data.apiError.code], foreign).toEqual([400, 'second_factor.passkey_origin_unknown']);
    }
    // the served one: its host name is the relying party
    expect((await optionsOf()).rpId).toBe('localhost');
  });

  it('refuses a credential already registered to another account (R24 finding 8)', async () => {
    const authenticator = new SoftwareAuthenticator(origin);
    const register = async () => {
      const account = await createAccount(admin);
      const session = http(origin, await signIn(app.url, { username: account.username, password: account.password }));
      const options = await trpc('secondFactors.passkeyRegistrationOptions', undefined, undefined, session);
      expect(options.status, JSON.stringify(options.body)).toBe(200);
      return trpc('secondFactors.registerPasskey', { name: 'Shared key', response: authenticator.register(options.body.result.data.options) }, undefined, session);
    };
    expect((await register()).status).toBe(200);
    const again = await register();
    expect([again.status, again.body.error?.data.apiError.code]).toEqual([409, 'second_factor.passkey_registered']);
  });
});
