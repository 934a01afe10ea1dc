import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { accountsTable, createAccountThroughRest, expectAccessible, newAccount, openAccount, restToken, signIn } from '../support/console';

/** a code as an authenticator app shows it at `step` (30-second steps since the epoch) */
const codeAt = (secret: string, step: number) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: step * 30_000 });
const stepNow = () => Math.floor(Date.now() / 30_000);

/** a password policy that requires a second factor of every account under it, made through REST */
async function policyRequiringSecondFactor(request: APIRequestContext): Promise<string> {
  const token = await restToken(request);
  const created = await request.post('/api/v2/policy', {
    data: { title: `Second factor ${Date.now().toString(36)}`, min_length: 6, min_strength: 0, lockout: 10, lockout_duration: 60, second_factor: 'all' },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()).data.id as string;
}

async function signInWithPassword(page: Page, account: { username: string; password: string }): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** signs out the way a closed browser does: the session cookie gone, the in-memory token with the page */
async function forgetSession(page: Page): Promise<void> {
  await page.context().clearCookies();
  await page.goto('/login');
}

test('a policy that requires a second factor leads an account to enrol; it then signs in with a code, and with a recovery code', async ({ page, request }) => {
  const account = newAccount('grace');
  await createAccountThroughRest(request, { ...account, policy: true, policy_id: await policyRequiringSecondFactor(request) });

  // the password is right, but the session may only enrol a second factor
  await signInWithPassword(page, account);
  await expect(page).toHaveURL(/\/second-factor\/enrol$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Set up a second factor' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'QR code of the authenticator app enrolment' })).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').getAttribute('data-secret'))!;
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expect(page.getByLabel('Secret')).toHaveValue(secret.replace(/(.{4})/g, '$1 ').trim());
  await expectAccessible(page, 'forced enrolment');

  // a wrong code is refused under the field; the app's current code confirms
  await page.getByLabel('Code from the app').fill(codeAt(secret, stepNow() + 10));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('This code is not valid: enter the code the app shows now')).toBeVisible();
  const enrolledAt = stepNow();
  await page.getByLabel('Code from the app').fill(codeAt(secret, enrolledAt));
  await page.getByRole('button', { name: 'Confirm' }).click();

  // ten recovery codes, shown once, to copy or download
  await expect(page.getByText('They are shown only now')).toBeVisible();
  const codes = await page.getByTestId('recovery-code').allTextContents();
  expect(codes).toHaveLength(10);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download' }).click();
  expect((await download).suggestedFilename()).toBe('rollcall-recovery-codes.txt');
  await expectAccessible(page, 'recovery codes');
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page).not.toHaveURL(/\/(login|second-factor\/enrol)$/);

  // the next sign-in asks for the code
  await forgetSession(page);
  await signInWithPassword(page, account);
  await expect(page.getByRole('heading', { name: 'Second factor' })).toBeVisible();
  await expectAccessible(page, 'second factor step');
  await page.getByRole('textbox', { name: /^Code/ }).fill(codeAt(secret, Math.max(stepNow(), enrolledAt) + 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).not.toHaveURL(/\/login$/);
  await expect(page).not.toHaveURL(/\/second-factor\/enrol$/);

  // a recovery code works once, and says how many remain
  await forgetSession(page);
  await signInWithPassword(page, account);
  await page.getByRole('textbox', { name: /^Code/ }).fill(codes[0]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('Signed in with a recovery code: 9 left.', { exact: false })).toBeVisible();
  await forgetSession(page);
  await signInWithPassword(page, account);
  await page.getByRole('textbox', { name: /^Code/ }).fill(codes[0]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toHaveText('This code is not valid. Check it and try again.');
});

test('an administrator resets the second factors of an account that lost its phone, with a reason', async ({ page, request }) => {
  const account = newAccount('hedy');
  const id = await createAccountThroughRest(request, account);
  // the account enrols an app through the API, as its own page would
  const own = (await (await request.post('/api/v2/admin/authenticate', { data: { username: account.username, password: account.password } })).json()).data.token as string;
  const started = (await (await request.post('/api/v2/second-factors/totp', { headers: { authorization: `Bearer ${own}` } })).json()).data;
  const confirmed = await request.post('/api/v2/second-factors/totp/confirm', { data: { enrolment_id: started.enrolment_id, code: codeAt(started.secret, stepNow()) }, headers: { authorization: `Bearer ${own}` } });
  expect(confirmed.status(), await confirmed.text()).toBe(200);

  await signIn(page);
  await expect(accountsTable(page)).toBeVisible();
  await openAccount(page, account);
  await page.getByRole('tab', { name: 'Account status and reset password' }).click();
  const card = page.locator('.MuiCard-root').filter({ has: page.getByRole('heading', { name: 'Second factors', exact: true }) });
  await expect(card.getByText('An authenticator app is enrolled (10 recovery codes left).')).toBeVisible();
  await card.getByRole('button', { name: 'Reset second factors' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset second factors' });
  await dialog.getByRole('button', { name: 'Reset' }).click();
  await expect(dialog.getByText('Give a reason for the reset')).toBeVisible();
  await dialog.getByLabel('Reason').fill('Lost phone on the train');
  await expectAccessible(page, 'reset second factors');
  await dialog.getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByText('Second factors reset', { exact: true })).toBeVisible();
  await expect(card.getByText('No second factor is enrolled.')).toBeVisible();

  // the reason is in the account's history, and the password alone signs in again
  const token = await restToken(request);
  const events = (await (await request.get(`/api/v2/audit/events?limit=50&stream=${encodeURIComponent(`second-factors-${id}`)}`, { headers: { authorization: `Bearer ${token}` } })).json()).data.data as Array<{ type: string; data: { reason?: string } }>;
  expect(events.find((event) => event.type === 'SecondFactorsReset')?.data.reason).toBe('Lost phone on the train');
  const again = await request.post('/api/v1/admin/authenticate', { data: { username: account.username, password: account.password } });
  expect(again.status()).toBe(200);
});

test("an administrator's own account offers no reset of its second factors, but the way to its own page", async ({ page, request }) => {
  const token = await restToken(request);
  const current = await request.get('/api/v2/account/current', { headers: { authorization: `Bearer ${token}` } });
  expect(current.status(), await current.text()).toBe(200);
  const own = (await current.json()).data as { id: string };

  await signIn(page);
  await page.goto(`/accounts/profile/${own.id}`);
  await page.getByRole('tab', { name: 'Account status and reset password' }).click();
  const card = page.locator('.MuiCard-root').filter({ has: page.getByRole('heading', { name: 'Second factors', exact: true }) });
  // the server refuses a reset of one's own account (second_factor.reset_own_account): the card does not offer it
  await expect(card.getByText('These are your own second factors.')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Reset second factors' })).toHaveCount(0);
  await expectAccessible(page, 'own second factors on the account page');
  await card.getByRole('link', { name: 'Open my page' }).click();
  await expect(page).toHaveURL(/\/me\?tab=security$/);
  await expect(page.getByRole('tab', { name: 'Security', selected: true })).toBeVisible();
});
