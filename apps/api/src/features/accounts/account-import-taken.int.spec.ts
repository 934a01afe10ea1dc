import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';

describe.each(storageKinds())('CSV account import: a taken username among other errors (%s)', (kind) => {
  let app: TestApp;
  let admin: ReturnType<typeof http>;
  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
  });
  afterAll(async () => {
    await app?.destroy();
  });

  it('names the taken username of a row that has other errors too, so one correction round is enough', async () => {
    const t = `taken${Date.now().toString(36)}`;
    const existing = await createAccount(admin, { username: `${t}.Existing` });
    const csv = [
      // taken (in another case) and without a valid e-mail address
      { first_name: 'Ada', last_name: 'Lovelace', email: 'not an e-mail', username: `${t}.existing` },
      // taken and nothing else wrong: the creation says so, as before
      { first_name: 'Ada', last_name: 'Byron', email: `${t}.byron@example.com`, username: existing.username },
      // other errors, username free: nothing said of it
      { first_name: '', last_name: 'Free', email: `${t}.free@example.com`, username: `${t}.free` },
    ];
    const response = await admin.post('/api/v1/accounts/import/csv', { csv });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const rows = response.body.rows as Array<{ status: string; errors?: Record<string, string[]> }>;
    expect(rows.map((row) => row.status)).toEqual(['failed', 'failed', 'failed']);
    expect(rows[0].errors).toMatchObject({ email: [expect.any(String)], username: ['This username is already taken'] });
    expect(rows[1].errors).toEqual({ username: ['This username is already taken'] });
    expect(rows[2].errors?.username).toBeUndefined();
  });
});
