import { randomBytes } from 'node:crypto';
import {
  ZAccount,
  ZApplicationConsent,
  ZMessageAnswer,
  ZOwnAttendance,
  ZOwnProfileSaved,
  ZOwnSession,
  ZOwnSessionsSignedOut,
  ZSecondFactorStatus,
  ZTotpConfirmed,
  ZTotpEnrolment,
} from '@rollcall/contracts';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';
import { CommandGateway } from '../../platform/commands/command-gateway';
import { systemContext } from '../../platform/commands/request-context';
import { totpCodeAt } from '../auth/second-factor/totp-codes';
import { GiveApplicationConsentCommand } from '../oidc/commands/give-application-consent.handler';

/**
 * The tRPC face of the page of one's own and of the own second factors (issue 24: 'REST and tRPC
 * contract tests for the new calls'): every procedure answers, for an ordinary account, what the
 * contract schema its REST twin is documented with (OpenAPI, e2e/contract/rest-samples.ts) says.
 * The passkeys' procedures are checked in second-factors/passkeys.int.spec.ts.
 */

type Client = ReturnType<typeof http>;

describe.each(storageKinds())('the own calls over tRPC keep their contracts (%s)', (kind) => {
  let app: TestApp;
  let admin: Client;
  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
  });
  afterAll(async () => {
    await app?.destroy();
  });

  const answer = async <Schema extends z.ZodType>(response: Promise<{ status: number; body: { result?: { data?: unknown } } }>, schema: Schema, path: string): Promise<z.infer<Schema>> => {
    const { status, body } = await response;
    expect(status, `${path}: ${JSON.stringify(body)}`).toBe(200);
    const parsed = schema.safeParse(body.result?.data);
    expect(parsed.success, `${path}: ${parsed.success ? '' : JSON.stringify(parsed.error.issues)}`).toBe(true);
    return parsed.data as z.infer<Schema>;
  };
  const query = (client: Client, path: string, input?: unknown) => client.get(`/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`);
  const mutation = (client: Client, path: string, input?: unknown) => client.post(`/trpc/${path}`, input ?? {});

  it('me.*: profile, time zones, sessions, attendance, consents and their changes', async () => {
    const account = await createAccount(admin);
    const credentials = { username: account.username, password: account.password };
    const own = http(app.url, await signIn(app.url, credentials));
    const other = await signIn(app.url, credentials);

    await answer(query(own, 'me.profile'), ZAccount, 'me.profile');
    expect(await answer(query(own, 'me.timeZones'), z.array(z.string()).min(1), 'me.timeZones')).toContain('Europe/Berlin');
    await answer(mutation(own, 'me.updateProfile', { nickname: 'Contract' }), ZOwnProfileSaved, 'me.updateProfile');
    const sessions = await answer(query(own, 'me.sessions'), z.array(ZOwnSession), 'me.sessions');
    expect(sessions).toHaveLength(2);
    await answer(query(own, 'me.attendance', { date: '2026-11-02' }), ZOwnAttendance, 'me.attendance');

    const application = (await admin.post('/api/v2/application', { title: `Wiki ${randomBytes(4).toString('hex')}` })).body.data.app as { id: string };
    await app.app.get(CommandGateway).execute(new GiveApplicationConsentCommand(account.id, application.id, ['openid'], systemContext()));
    expect(await answer(query(own, 'me.consents'), z.array(ZApplicationConsent), 'me.consents')).toHaveLength(1);
    await answer(mutation(own, 'me.revokeConsent', { application_id: application.id }), ZMessageAnswer, 'me.revokeConsent');

    const otherId = (await answer(query(http(app.url, other), 'me.sessions'), z.array(ZOwnSession), 'me.sessions')).find((session) => session.current)!.id;
    expect(await answer(mutation(own, 'me.signOutSession', { id: otherId }), ZOwnSessionsSignedOut, 'me.signOutSession')).toMatchObject({ signed_out: 1 });
    await answer(mutation(own, 'me.signOutOtherSessions'), ZOwnSessionsSignedOut, 'me.signOutOtherSessions');
    await answer(mutation(own, 'me.changePassword', { current_password: account.password, new_password: `${account.password} and more` }), ZMessageAnswer, 'me.changePassword');

    // bad input answers the one error shape with its rules, as over REST: the contract's, and the domain's own
    const unknown = await mutation(own, 'me.updateProfile', { email: 'someone@example.org' });
    expect(unknown.body.error.data.apiError).toMatchObject({ code: 'request.invalid', fields: { _: [expect.any(String)] }, rules: [{ field: '_', code: 'unknown_fields', params: { keys: 'email' } }] });
    const tooLong = await mutation(own, 'me.updateProfile', { first_name: 'x'.repeat(300) });
    expect(tooLong.body.error.data.apiError).toMatchObject({ code: 'account.profile_too_long', rules: [{ field: 'first_name', code: 'too_long', params: { max: expect.any(Number) } }] });
  });

  it('secondFactors.*: the own status, an app enrolled; an administrator reads and resets it', async () => {
    const account = await createAccount(admin);
    const own = http(app.url, await signIn(app.url, { username: account.username, password: account.password }));

    expect(await answer(query(own, 'secondFactors.mine'), ZSecondFactorStatus, 'secondFactors.mine')).toMatchObject({ factors: [] });
    const started = await answer(mutation(own, 'secondFactors.startTotp'), ZTotpEnrolment, 'secondFactors.startTotp');
    const confirmed = await answer(mutation(own, 'secondFactors.confirmTotp', { enrolment_id: started.enrolment_id, code: totpCodeAt(started.secret, new Date()) }), ZTotpConfirmed, 'secondFactors.confirmTotp');
    expect(confirmed.recovery_codes).toHaveLength(10);
    expect((await answer(query(own, 'secondFactors.mine'), ZSecondFactorStatus, 'secondFactors.mine')).factors).toHaveLength(1);

    expect((await answer(query(admin, 'secondFactors.ofAccount', { id: account.id }), ZSecondFactorStatus, 'secondFactors.ofAccount')).factors).toHaveLength(1);
    await answer(mutation(admin, 'secondFactors.reset', { id: account.id, reason: 'Contract suite' }), ZMessageAnswer, 'secondFactors.reset');
    expect((await answer(query(admin, 'secondFactors.ofAccount', { id: account.id }), ZSecondFactorStatus, 'secondFactors.ofAccount')).factors).toEqual([]);
  });
});
