import { randomBytes } from 'node:crypto';
import {
  ZAccount,
  ZApiError,
  ZApplicationConsent,
  ZMessageAnswer,
  ZOwnAttendance,
  ZOwnProfileSaved,
  ZOwnSession,
  ZOwnSessionsSignedOut,
  ZRecoveryCodes,
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
 * Refusals answer the one error shape (ZApiError's) under `data.apiError`. The passkeys' procedures
 * are checked in second-factors/passkeys.int.spec.ts.
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
  /** a refusal: its status, and the one error shape (ZApiError's) under `data.apiError` with its code */
  const refusal = async (response: Promise<{ status: number; body: { error?: { data?: { apiError?: unknown } } } }>, status: number, code: string, path: string) => {
    const { status: answered, body } = await response;
    expect(answered, `${path}: ${JSON.stringify(body)}`).toBe(status);
    const parsed = ZApiError.shape.error.safeParse(body.error?.data?.apiError);
    expect(parsed.success, `${path}: ${parsed.success ? '' : JSON.stringify(parsed.error.issues)}`).toBe(true);
    expect(parsed.data?.code, path).toBe(code);
    return parsed.data!;
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

  it('secondFactors.removeTotp and regenerateRecoveryCodes: a current factor first, then a new set and the removal; refusals in the one error shape', async () => {
    const account = await createAccount(admin);
    const own = http(app.url, await signIn(app.url, { username: account.username, password: account.password }));
    // nothing enrolled: nothing to remove, and no codes without a factor
    await refusal(mutation(own, 'secondFactors.removeTotp'), 404, 'second_factor.not_found', 'secondFactors.removeTotp');
    await refusal(mutation(own, 'secondFactors.regenerateRecoveryCodes'), 409, 'second_factor.none_enrolled', 'secondFactors.regenerateRecoveryCodes');

    const started = await answer(mutation(own, 'secondFactors.startTotp'), ZTotpEnrolment, 'secondFactors.startTotp');
    const { recovery_codes: first } = await answer(mutation(own, 'secondFactors.confirmTotp', { enrolment_id: started.enrolment_id, code: totpCodeAt(started.secret, new Date()) }), ZTotpConfirmed, 'secondFactors.confirmTotp');

    // a current code first: none, or a wrong one, is refused under `code` with its rule
    for (const path of ['secondFactors.regenerateRecoveryCodes', 'secondFactors.removeTotp']) {
      const required = await refusal(mutation(own, path), 400, 'second_factor.confirmation_required', path);
      expect(Object.keys(required.fields ?? {}), path).toEqual(['code']);
      expect(required.rules?.map((rule) => rule.field), path).toEqual(['code']);
      const invalid = await refusal(mutation(own, path, { confirmation: { code: '000000' } }), 400, 'second_factor.confirmation_invalid', path);
      expect(Object.keys(invalid.fields ?? {}), path).toEqual(['code']);
    }

    const renewed = await answer(mutation(own, 'secondFactors.regenerateRecoveryCodes', { confirmation: { code: first![0] } }), ZRecoveryCodes, 'secondFactors.regenerateRecoveryCodes');
    expect(renewed.recovery_codes).toHaveLength(10);
    // the new set replaced the old: an old code confirms nothing any more
    await refusal(mutation(own, 'secondFactors.removeTotp', { confirmation: { code: first![1] } }), 400, 'second_factor.confirmation_invalid', 'secondFactors.removeTotp');
    await answer(mutation(own, 'secondFactors.removeTotp', { confirmation: { code: renewed.recovery_codes[0] } }), ZMessageAnswer, 'secondFactors.removeTotp');
    expect(await answer(query(own, 'secondFactors.mine'), ZSecondFactorStatus, 'secondFactors.mine')).toMatchObject({ factors: [], recovery_codes: { remaining: 0 } });
  });
});
