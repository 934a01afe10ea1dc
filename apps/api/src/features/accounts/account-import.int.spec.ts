import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';

describe.each(storageKinds())('CSV account import over REST (%s)', (kind) => {
  let app: TestApp;
  let admin: ReturnType<typeof http>;
  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
  });
  afterAll(async () => {
    await app?.destroy();
  });

  const total = async () => (await admin.get('/api/v1/accounts?limit=1')).body.total as number;
  let tags = 0;
  const tag = () => `imp${Date.now().toString(36)}${(tags += 1)}`;
  const row = (t: string, name: string, extra: Record<string, string> = {}) => ({ first_name: 'Ada', last_name: name, email: `${t}.${name}@example.com`, username: `${t}.${name}`, ...extra });

  it('creates the good rows of a mixed file and reports each bad one on its field', async () => {
    const t = tag();
    const policy = await admin.post('/api/v1/policy', { title: `Import ${t}`, description: '', min_length: 12, min_strength: 3, lockout: 0, lockout_duration: 60 });
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    const existing = await createAccount(admin, { username: `${t}.existing`, email: `${t}.existing.first@example.com` });
    const before = await total();
    const csv = [
      row(t, 'strong', { password: 'violet tractor mumbles quietly 88' }),
      row(t, 'bademail', { email: 'not-an-address', password: 'violet tractor mumbles quietly 88' }),
      row(t, 'weak', { password: 'password1234' }),
      row(t, 'nopass'),
      { ...row(t, 'repeat'), username: `${t}.strong` },
      { ...row(t, 'taken'), username: existing.username },
    ];
    const response = await admin.post('/api/v1/accounts/import/csv', { csv, policyId: policy.body.id });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.headers.get('x-rollcall-consistency')).toBe('consistent');
    expect(response.body).toEqual({
      created: 2,
      failed: 4,
      rows: [
        { row: 1, status: 'created', id: expect.any(String) },
        // beside each message its rule, to translate by (issue 21, review 6b)
        { row: 2, status: 'failed', errors: { email: ['E-mail must be a valid e-mail address'] }, rules: [{ field: 'email', code: 'email', params: { label: 'E-mail' }, message: 'E-mail must be a valid e-mail address' }] },
        {
          row: 3,
          status: 'failed',
          errors: { password: [expect.stringMatching(/^Password is too weak under policy "Import /)] },
          rules: [{ field: 'password', code: 'too_weak', params: expect.objectContaining({ min: 3 }), message: expect.stringMatching(/^Password is too weak/) }],
        },
        { row: 4, status: 'created', id: expect.any(String) },
        {
          row: 5,
          status: 'failed',
          errors: { username: ['This username appears more than once in the file: same username as row 1'] },
          rules: [{ field: 'username', code: 'duplicate_in_file', params: { label: 'Username', row: 1 }, message: 'This username appears more than once in the file: same username as row 1' }],
        },
        { row: 6, status: 'failed', errors: { username: ['This username is already taken'] }, rules: [{ field: 'username', code: 'account.username_taken', message: 'This username is already taken' }] },
      ],
    });
    expect(await total()).toBe(before + 2);
    const strong = await admin.get(`/api/v1/account/${response.body.rows[0].id}`);
    expect(strong.body).toMatchObject({ username: `${t}.strong`, status_id: 1, policy_id: policy.body.id });
    const awaiting = await admin.get(`/api/v2/account/${response.body.rows[3].id}`);
    // a row without a password keeps the import's policy: its first password must meet it
    expect(awaiting.body.data.account).toMatchObject({ username: `${t}.nopass`, status_id: 4, policy_id: policy.body.id });
    const weakFirst = await admin.raw('PUT', `/api/v1/account/${response.body.rows[3].id}/password`, { password: 'password1234' });
    expect([weakFirst.status, weakFirst.body.error?.code]).toEqual([400, 'password.too_weak']);
    for (const name of ['bademail', 'weak', 'repeat', 'taken']) {
      expect((await admin.get(`/api/v1/accounts?search=${t}.${name}`)).body.total, name).toBe(0);
    }
    // the strong one signs in with its imported password
    expect((await http(app.url).post('/api/v1/admin/authenticate', { username: `${t}.strong`, password: 'violet tractor mumbles quietly 88' })).status).toBe(200);
  });

  it("reports the file's line of each row (lines), and names the earlier line of a duplicate", async () => {
    const t = tag();
    // the file: a header (line 1), an empty line, a row whose quoted last name spans lines 4-5, then 6 and 8
    const csv = [row(t, 'first'), row(t, 'second'), { ...row(t, 'third'), username: `${t}.first` }, { ...row(t, 'fourth'), email: row(t, 'second').email }];
    const lines = [3, 4, 6, 8];
    const response = await admin.post('/api/v2/accounts/import/csv', { csv, lines });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data.rows).toEqual([
      { row: 1, line: 3, status: 'created', id: expect.any(String) },
      { row: 2, line: 4, status: 'created', id: expect.any(String) },
      {
        row: 3,
        line: 6,
        status: 'failed',
        errors: { username: ['This username appears more than once in the file: same username as line 3'] },
        rules: [{ field: 'username', code: 'duplicate_in_file', params: { label: 'Username', line: 3 }, message: 'This username appears more than once in the file: same username as line 3' }],
      },
      {
        row: 4,
        line: 8,
        status: 'failed',
        errors: { email: ['This e-mail address appears more than once in the file: same e-mail address as line 4'] },
        rules: [{ field: 'email', code: 'duplicate_in_file', params: { label: 'E-mail', line: 4 }, message: 'This e-mail address appears more than once in the file: same e-mail address as line 4' }],
      },
    ]);
    const mismatched = await admin.post('/api/v1/accounts/import/csv', { csv: [row(tag(), 'a'), row(tag(), 'b')], lines: [2] });
    expect(mismatched.status).toBe(400);
    expect(mismatched.body.error.fields).toEqual({ lines: ['lines must give one line number per row of csv'] });
    const notNumbers = await admin.post('/api/v1/accounts/import/csv', { csv: [row(tag(), 'a')], lines: [0] });
    expect([notNumbers.status, Object.keys(notNumbers.body.error.fields)]).toEqual([400, ['lines.0']]);
  });

  it('answers v2 and unprefixed wrapped in data, and refuses a missing policy', async () => {
    for (const prefix of ['/api/v2', '/api']) {
      const t = tag();
      const response = await admin.post(`${prefix}/accounts/import/csv`, { csv: [row(t, 'one')] });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ created: 1, failed: 0, rows: [{ row: 1, status: 'created' }] });
    }
    const missing = await admin.post('/api/v1/accounts/import/csv', { csv: [row(tag(), 'x', { password: 'long enough password' })], policyId: 'no-such-policy' });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'policy.not_found', fields: { policyId: [expect.any(String)] } });
  });

  it('refuses an empty file, a row that is not an object, and more than 1,000 rows', async () => {
    const empty = await admin.post('/api/v1/accounts/import/csv', { csv: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.error.fields.csv).toEqual(['The file has no rows to import']);
    const notObject = await admin.post('/api/v1/accounts/import/csv', { csv: [row(tag(), 'a'), 'first,last'] });
    expect(notObject.status).toBe(400);
    expect(Object.keys(notObject.body.error.fields)).toEqual(['csv.1']);
    const before = await total();
    const t = tag();
    const tooMany = await admin.post('/api/v1/accounts/import/csv', { csv: Array.from({ length: 1001 }, (_, i) => row(t, `n${i}`)) });
    expect(tooMany.status).toBe(413);
    expect(tooMany.body.error).toEqual({ code: 'request.too_large', message: expect.stringContaining('1000 rows') });
    expect(await total()).toBe(before);
  });

  it('accepts a body above the global 1 MB on this route only, up to 4 MB', async () => {
    const padding = 'x'.repeat(1500);
    // unknown columns fail their rows without creating anything: only the body size matters here
    const big = await admin.post('/api/v1/accounts/import/csv', { csv: Array.from({ length: 1000 }, (_, i) => ({ ...row('big', `n${i}`), notes: padding })) });
    expect(big.status, JSON.stringify(big.body).slice(0, 300)).toBe(200);
    expect(big.body.failed).toBe(1000);
    expect(big.body.rows[0].errors).toEqual({ _: ['Unknown field(s): notes'] });
    const huge = await admin.post('/api/v2/accounts/import/csv', { csv: Array.from({ length: 1000 }, (_, i) => ({ ...row('huge', `n${i}`), notes: padding.repeat(3) })) });
    expect(huge.status).toBe(413);
    expect(huge.body.error).toEqual({ code: 'request.too_large', message: 'The body is larger than 4 MB' });
    const elsewhere = await admin.post('/api/v1/account', { first_name: padding.repeat(800) });
    expect(elsewhere.status).toBe(413);
    expect(elsewhere.body.error.message).toBe('The body is larger than 1 MB');
  });

  it('imports 1,000 rows in one request', async () => {
    const before = await total();
    const t = tag();
    const started = performance.now();
    const response = await admin.post('/api/v1/accounts/import/csv', { csv: Array.from({ length: 1000 }, (_, i) => row(t, `n${i}`)) });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`[${kind}] 1,000-row import took ${seconds} s`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ created: 1000, failed: 0 });
    expect(response.body.rows.map((r: { row: number }) => r.row)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    expect(await total()).toBe(before + 1000);
  }, 120_000);
});
