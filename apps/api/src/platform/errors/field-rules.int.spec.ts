import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';

/**
 * Over HTTP, the checks that answered the catch-all rule `invalid` name their rule (issue 21 item 6):
 * `error.rules` gains the code and parameters a console translates; the code, message and fields
 * stay as they were.
 */
describe.each(storageKinds())('field errors name their rule over REST (%s)', (kind) => {
  let app: TestApp;
  let admin: ReturnType<typeof http>;

  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
  });

  afterAll(async () => {
    await app?.destroy();
  });

  const rulesOf = (body: { error: { rules?: Array<{ field: string; code: string; params?: unknown }> } }) => body.error.rules?.map(({ field, code, params }) => ({ field, code, params }));

  it("create account: the policy and expiry switches on without their values say which is required, and a policy_id without its switch says 'only with'", async () => {
    const account = { first_name: 'Rule', last_name: 'Named', email: 'rule.named@example.org', username: 'rule.named', password: 'a long enough password' };
    const switchesOn = await admin.post('/api/v1/account', { ...account, policy: true, expiry: true });
    expect(switchesOn.status).toBe(400);
    expect(switchesOn.body.error.code).toBe('request.invalid');
    expect(switchesOn.body.error.fields).toEqual({ policy_id: ['Pick a password policy or turn enforcement off'], expires_at: ['Pick an expiry date or turn expiry off'] });
    expect(rulesOf(switchesOn.body)).toEqual([
      { field: 'policy_id', code: 'required', params: { label: 'Password policy' } },
      { field: 'expires_at', code: 'required', params: { label: 'Expiry date' } },
    ]);

    const policyWithoutSwitch = await admin.post('/api/v1/account', { ...account, policy_id: '1' });
    expect(policyWithoutSwitch.status).toBe(400);
    expect(rulesOf(policyWithoutSwitch.body)).toEqual([{ field: 'policy_id', code: 'only_with', params: { label: 'Password policy', other: 'Enforce password policy' } }]);
  });

  it('arrivals and departures: To before From, and a range too long, name the rule with From and the maximum', async () => {
    const backwards = await admin.get('/api/v2/logs/arrivals-departures?date_from=2026-11-10&date_to=2026-11-01');
    expect(backwards.status).toBe(400);
    expect(backwards.body.error.fields).toEqual({ date_to: ['date_to cannot be before date_from'] });
    expect(rulesOf(backwards.body)).toEqual([{ field: 'date_to', code: 'not_before', params: { label: 'To', other: 'From' } }]);

    const tooLong = await admin.get('/api/v2/logs/arrivals-departures?date_from=2020-01-01&date_to=2026-11-01');
    expect(tooLong.status).toBe(400);
    expect(rulesOf(tooLong.body)).toEqual([{ field: 'date_to', code: 'span', params: { label: 'To', other: 'From', max: 366 } }]);

    const notADate = await admin.get('/api/v2/logs/arrivals-departures?date_from=2026-13-01');
    expect(notADate.status).toBe(400);
    expect(rulesOf(notADate.body)).toEqual([{ field: 'date_from', code: 'date', params: { label: 'date_from' } }]);
  });
});
