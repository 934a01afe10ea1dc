import { expect, test } from '@playwright/test';
import { accountStatusCard, openAccountStatusTab, createAccountThroughRest, expectAccessible, newAccount, openAccount, requirePasswordChangeThroughRest, resetPasswordCard, restToken, signIn } from '../support/console';
import { ADMIN } from '../playwright.config';

test('an administrator disables an account and sets its password by hand', async ({ page, request }) => {
  const account = newAccount('emmy');
  await createAccountThroughRest(request, account);
  await signIn(page);
  await openAccount(page, account);
  await openAccountStatusTab(page);

  // the status card: username read-only, status picker, policy picker only while enforced
  const status = accountStatusCard(page);
  await expect(status.getByLabel('Primary username')).toHaveValue(account.username);
  await expect(status.getByRole('combobox', { name: 'Account status' })).toHaveText('Active');
  await expect(status.getByRole('combobox', { name: 'Password policy' })).toHaveCount(0);
  await status.getByLabel('Enforce password policy').check();
  await expect(status.getByRole('combobox', { name: 'Password policy' })).toBeVisible();
  await status.getByLabel('Enforce password policy').uncheck();
  await expectAccessible(page, 'account status and reset password');

  await status.getByRole('combobox', { name: 'Account status' }).click();
  await page.getByRole('option', { name: 'Disabled' }).click();
  await status.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Account status changed')).toBeVisible();

  // the reset card: the switches exclude each other; manual shows the password field
  const reset = resetPasswordCard(page);
  await reset.getByLabel('Require password change on next login').check();
  await reset.getByLabel('Set new password manually').check();
  await expect(reset.getByLabel('Require password change on next login')).not.toBeChecked();
  const password = reset.getByLabel('New password', { exact: true });
  await expect(password).toHaveAttribute('type', 'password');
  await expect(reset.getByText('Enter new password')).toBeVisible();
  await password.fill('noether rings 1921');
  await expect(reset.getByText('18/255')).toBeVisible();
  await expectAccessible(page, 'manual password');
  await reset.getByRole('button', { name: 'Update password' }).click();
  await expect(page.getByText('Password updated successfully')).toBeVisible();

  // a reload shows the stored status
  await page.reload();
  await expect(accountStatusCard(page).getByRole('combobox', { name: 'Account status' })).toHaveText('Disabled');
});

test('an account that must change its password does so right after signing in', async ({ page, request }) => {
  const account = newAccount('ada');
  const id = await createAccountThroughRest(request, account);
  await requirePasswordChangeThroughRest(request, id);

  await page.goto('/login');
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/change-password$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Change your password' })).toBeVisible();
  await expectAccessible(page, 'change password');

  await page.getByLabel('Current password').fill('not the password');
  await page.getByLabel('New password').fill('difference engine 1822');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Current password is wrong')).toBeVisible();

  await page.getByLabel('Current password').fill(account.password);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password updated successfully')).toBeVisible();
  // the restriction is gone; a plain account (no administrator role) administers nothing, so it
  // lands on its own page
  await expect(page).toHaveURL(/\/me$/);
  await expect(page.getByRole('heading', { level: 1, name: 'My account' })).toBeVisible();
});

test("an administrator's own password is not set from the administrators' card: the server's answer names the own page", async ({ page, request }) => {
  const token = await restToken(request);
  const own = ((await (await request.get('/api/v2/account/current', { headers: { authorization: `Bearer ${token}` } })).json()).data as { id: string }).id;
  await signIn(page);
  await page.goto(`/accounts/profile/${own}`);
  await openAccountStatusTab(page);
  const reset = resetPasswordCard(page);
  await reset.getByLabel('Set new password manually').check();
  await reset.getByLabel('New password', { exact: true }).fill('attacker chosen phrase 1');
  await reset.getByRole('button', { name: 'Update password' }).click();
  // 403 account.own_password_via_own_page (review R24c G2), kept under the field
  await expect(reset.getByText('change your own password on your own page (My account, Security)')).toBeVisible();
  // the password is unchanged: the administrator still signs in with it
  expect((await request.post('/api/v2/admin/authenticate', { data: ADMIN })).status()).toBe(200);
});
