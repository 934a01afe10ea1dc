import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { accountStatusCard, openAccountStatusTab, expectAccessible, newAccount, openAccount, openCreateAccount, signIn } from '../support/console';

/** the activation link of the n-th mail to `email`, as the log mailer wrote it (ROLLCALL_MAIL_LOG_FILE) */
async function activationLinkFor(email: string, count = 1): Promise<string> {
  const file = join(process.env.E2E_DATA_DIR!, 'mail.log');
  let link: string | undefined;
  await expect
    .poll(() => {
      const mails = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { to: string; text: string }) : [];
      link = mails.filter((mail) => mail.to === email)[count - 1]?.text.match(/https?:\/\/\S+\/activate\/[A-Za-z0-9_-]+/)?.[0];
      return link;
    })
    .toBeTruthy();
  // the mail's base is ROLLCALL_PUBLIC_URL (here http://localhost:<port>); the browser uses the test's base URL
  return new URL(link!).pathname;
}

test('a new user sets the first password through the activation e-mail and signs in', async ({ page, request }) => {
  const account = newAccount('grace');
  await signIn(page);

  // the administrator creates the account without a password, activation e-mail on
  const dialog = await openCreateAccount(page);
  await dialog.locator('input[name=first_name]').fill(account.first_name);
  await dialog.locator('input[name=last_name]').fill(account.last_name);
  await dialog.locator('input[name=email]').fill(account.email);
  await dialog.locator('input[name=username]').fill(account.username);
  await dialog.getByRole('switch', { name: 'Create without password' }).check();
  await dialog.getByRole('switch', { name: 'Send account activation e-mail' }).check();
  await expect(dialog.getByText('The e-mail carries a single-use link to choose a password')).toBeVisible();
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByText('Account created successfully!')).toBeVisible();

  // the account page says it awaits activation
  await openAccount(page, account);
  await openAccountStatusTab(page);
  await expect(accountStatusCard(page).getByText('Awaiting activation: the user has not chosen a password yet')).toBeVisible();
  await page.screenshot({ path: '/tmp/activation-status-card.png', fullPage: true });
  await page.context().clearCookies();
  await page.evaluate(() => window.localStorage.clear());

  // the user opens the link from the mail
  const path = await activationLinkFor(account.email);
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: 'Activate your account' })).toBeVisible();
  await expect(page.getByTestId('activation-username')).toHaveText(account.username);
  await expect(page.getByText('Any password of up to 255 characters')).toBeVisible();
  await expectAccessible(page, 'activation page');
  await page.screenshot({ path: '/tmp/activation-page.png', fullPage: true });

  // confirm must match
  await page.getByLabel('New password').fill('hopper compiler 1952');
  await page.getByLabel('Confirm password').fill('hopper compiler 1953');
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByText('The passwords do not match')).toBeVisible();
  await page.screenshot({ path: '/tmp/activation-page-mismatch.png', fullPage: true });

  await page.getByLabel('Confirm password').fill('hopper compiler 1952');
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByText(`Your account ${account.username} is active. You can sign in now.`)).toBeVisible();
  await page.screenshot({ path: '/tmp/activation-page-done.png', fullPage: true });

  // the link worked once
  await page.goto(path);
  await expect(page.getByText('This activation link is invalid or has expired. Ask an administrator for a new one.')).toBeVisible();
  await page.screenshot({ path: '/tmp/activation-page-invalid.png', fullPage: true });
  await page.getByRole('link', { name: 'Go to sign-in' }).click();
  await expect(page).toHaveURL(/\/login$/);

  // and the chosen password signs in (through the console's sign-in form; the user may not see the accounts list)
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Password').fill('hopper compiler 1952');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).not.toHaveURL(/\/login$/);
  const signedIn = await request.post('/api/v1/admin/authenticate', { data: { username: account.username, password: 'hopper compiler 1952' } });
  expect(signedIn.status()).toBe(200);
});

test('the activation page shows the policy and the server errors under the field', async ({ page, request }) => {
  const admin = (await (await request.post('/api/v1/admin/authenticate', { data: ADMIN })).json()).token as string;
  const headers = { authorization: `Bearer ${admin}` };
  const policy = await request.post('/api/v1/policy', { headers, data: { title: `Activation e2e ${Date.now().toString(36)}`, description: '', min_length: 16, min_strength: 0, lockout: 0, lockout_duration: 60 } });
  expect(policy.status()).toBe(201);
  const account = newAccount('mary');
  const created = await request.post('/api/v1/account', { headers, data: { ...account, password: undefined, no_password: true, activation: true } });
  expect(created.status()).toBe(201);
  const id = (await created.json()).id as string;
  expect((await request.put(`/api/v1/account/${id}/auth`, { headers, data: { policy_id: String((await policy.json()).id) } })).status()).toBe(200);
  // a resend after the policy change: the first link dies, the second works
  expect((await request.post(`/api/v1/account/${id}/activation`, { headers })).status()).toBe(202);

  await page.goto(await activationLinkFor(account.email, 2));
  await expect(page.getByText('At least 16 characters')).toBeVisible();
  await page.getByLabel('New password').fill('short one 1');
  await page.getByLabel('Confirm password').fill('short one 1');
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByRole('textbox', { name: 'New password' })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(/at least 16 characters under policy/i)).toBeVisible();
  await page.screenshot({ path: '/tmp/activation-page-policy.png', fullPage: true });
});

test('an administrator unlocks an account locked by wrong passwords', async ({ page, request }) => {
  const admin = (await (await request.post('/api/v1/admin/authenticate', { data: ADMIN })).json()).token as string;
  const headers = { authorization: `Bearer ${admin}` };
  const policy = await request.post('/api/v1/policy', { headers, data: { title: `Lockout e2e ${Date.now().toString(36)}`, description: '', min_length: 8, min_strength: 0, lockout: 3, lockout_duration: 3600 } });
  const account = newAccount('ida');
  const created = await request.post('/api/v1/account', { headers, data: { ...account, policy: true, policy_id: String((await policy.json()).id) } });
  expect(created.status()).toBe(201);
  for (let i = 0; i < 3; i += 1) expect((await request.post('/api/v1/admin/authenticate', { data: { username: account.username, password: 'wrong' } })).status()).toBe(401);

  await signIn(page);
  await openAccount(page, account);
  await openAccountStatusTab(page);
  const card = accountStatusCard(page);
  await expect(card.getByText(/^Locked until \d\d\.\d\d\.\d{4} @ \d\d:\d\d UTC([+-]\d{1,2}(:\d\d)?)?$/)).toBeVisible();
  await page.screenshot({ path: '/tmp/activation-locked-card.png', fullPage: true });
  await card.getByRole('button', { name: 'Unlock' }).click();
  await expect(page.getByText('Account unlocked')).toBeVisible();
  await expect(card.getByText(/Locked until/)).toHaveCount(0);
  expect((await request.post('/api/v1/admin/authenticate', { data: { username: account.username, password: account.password } })).status()).toBe(200);
});
