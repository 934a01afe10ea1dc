import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';

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

  it("a slot correction: every message of the domain's answer names its rule, not only the first", async () => {
    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
    const account = await createAccount(admin);
    const added = await admin.post('/api/v2/logs/arrivals-departures', { account_id: account.id, arrived_at: `${day(3)}T08:00`, departed_at: `${day(3)}T12:00`, reason: 'Reader was down' });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const refused = await admin.raw('PATCH', `/api/v2/logs/arrivals-departures/edit/${added.body.data.id}`, { arrived_at: `${day(2)}T08:00:00Z`, departed_at: `${day(2)}T07:00:00Z`, reason: 'typo' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'attendance.correction_invalid', fields: { arrived_at: [`The arrival must stay on ${day(3)}`], departed_at: ['The departure must be after the arrival'] } });
    expect(rulesOf(refused.body)).toEqual([
      { field: 'arrived_at', code: 'same_day', params: { label: 'Arrival', day: day(3) } },
      { field: 'departed_at', code: 'after', params: { label: 'Departure', other: 'Arrival' } },
    ]);
  });

  it('an access token whose expiry has passed: must be in the future, labelled as the dialog labels it', async () => {
    const adminId = (await admin.get('/api/v1/account/current')).body.id as string;
    const refused = await admin.post('/api/v1/token', { title: 'Expired', forever: false, expires_at: '2020-01-01', permissions: ['accounts:read'], restrictions: [], account_id: adminId });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'token.expiry_past', fields: { expires_at: ['The expiry must be in the future'] } });
    expect(rulesOf(refused.body)).toEqual([{ field: 'expires_at', code: 'future', params: { label: 'Expiry date' } }]);
  });
});
