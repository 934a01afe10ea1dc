import { expect, test, type Page } from '@playwright/test';
import { createAccountThroughRest, createOrganizationThroughRest, expectAccessible, grantSystemPermissionsThroughRest, newAccount, openAccount, signIn } from '../support/console';

function tokenDialog(page: Page, mode: 'create' | 'edit') {
  return page.getByRole('dialog', { name: mode === 'create' ? 'Create new access token' : 'Edit access token' });
}

async function choosePermission(page: Page, dialog: ReturnType<typeof tokenDialog>, slug: string): Promise<void> {
  await dialog.getByRole('combobox', { name: 'Permissions' }).click();
  await page.getByRole('option', { name: new RegExp(`^${slug}`) }).click();
  await page.keyboard.press('Escape');
}

test('an administrator creates an access token for an account, a program uses it, and it ends when deleted', async ({ page, request }) => {
  test.setTimeout(120_000); // one long scenario: create, use, wait for the batched last use, edit, delete
  const account = newAccount('grace');
  // a program acts within what its account may do (docs/adr/0011): this one reads the accounts of its organization
  const organizationId = await createOrganizationThroughRest(request, `Programs ${Date.now().toString(36)}`);
  const accountId = await createAccountThroughRest(request, { ...account, organization: organizationId });
  await grantSystemPermissionsThroughRest(request, organizationId, accountId, ['accounts:read']);
  await signIn(page);
  await openAccount(page, account);
  await page.getByRole('tab', { name: 'Access tokens' }).click();
  await expect(page).toHaveURL(/tab=tokens/);
  await expect(page.getByText('No access tokens yet.')).toBeVisible();

  await page.getByRole('button', { name: 'Add Token' }).click();
  const dialog = tokenDialog(page, 'create');
  await expect(dialog).toBeVisible();
  // nothing chosen: the server names title and permissions under their fields
  await dialog.getByRole('button', { name: 'Create token' }).click();
  await expect(dialog.getByText('Title is required')).toBeVisible();
  await expect(dialog.getByText('Choose at least one permission')).toBeVisible();

  await dialog.getByLabel('Title').fill('Payroll export');
  await expect(dialog.getByText('14/255')).toBeVisible();
  await choosePermission(page, dialog, 'accounts:read');
  await choosePermission(page, dialog, 'accounts:write');
  const restrictions = dialog.getByRole('combobox', { name: 'IP restrictions' });
  // a bad address is refused as it is typed, and named: it never becomes a chip
  await restrictions.fill('999.1.1.1');
  await restrictions.press('Enter');
  await expect(dialog.getByText('999.1.1.1 is not an IP address or a CIDR range (for example 192.168.1.10 or 10.0.0.0/8): correct it and press Enter')).toBeVisible();
  await expect(dialog.getByRole('button', { name: '999.1.1.1' })).toHaveCount(0);
  await expect(restrictions).toHaveValue('999.1.1.1');
  await dialog.getByLabel('Never expires').check();
  // corrected in place, it comes in with Enter; so do the loopback address and a range
  await restrictions.fill('99.1.1.1');
  await restrictions.press('Enter');
  await expect(dialog.getByText(/is not an IP address/)).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: '99.1.1.1' })).toBeVisible();
  await restrictions.fill('127.0.0.1');
  await restrictions.press('Enter');
  await restrictions.fill('192.168.0.0/16');
  await restrictions.press('Enter');
  await expectAccessible(page, 'token dialog');
  await dialog.getByRole('button', { name: 'Create token' }).click();
  await expect(page.getByText('Token created')).toBeVisible();

  // the secret, once
  const created = page.getByRole('dialog', { name: 'Token Payroll export created' });
  await expect(created.getByText('shown only this once')).toBeVisible();
  const secret = (await created.getByLabel('The new access token').textContent())!.trim();
  expect(secret).toMatch(/^rc_[\w-]{43}$/);
  await page.screenshot({ path: 'test-results/access-token-created.png' });
  await created.getByRole('button', { name: 'Done' }).click();

  const table = page.getByRole('table', { name: 'Access tokens' });
  const row = table.getByRole('row', { name: /Payroll export/ });
  await expect(row).toContainText(`${secret.slice(0, 11)}…`);
  await expect(row).not.toContainText(secret);
  await expect(row.getByText('never')).toHaveCount(2);
  await expectAccessible(page, 'tokens tab');

  // a program uses it, like curl would, within its permissions only
  const asProgram = { headers: { authorization: `Bearer ${secret}` } };
  const listed = await request.get('/api/v2/accounts?limit=1', asProgram);
  expect(listed.status()).toBe(200);
  expect((await request.delete('/api/v1/account/0190a3c6-0000-7000-8000-000000000000', asProgram)).status()).toBe(403);

  // last used appears once the batch is written (every 5 s)
  await expect(async () => {
    await page.reload();
    // a reload on a busy machine can take seconds before the table shows
    await expect(page.getByRole('table', { name: 'Access tokens' }).getByRole('row', { name: /Payroll export/ }).getByText('never')).toHaveCount(1, { timeout: 5000 });
  }).toPass({ timeout: 45_000 });
  await page.screenshot({ path: 'test-results/access-tokens-tab.png', fullPage: true });

  // edit: the dialog reloads the token, the change is kept
  await page.getByRole('button', { name: 'Actions for Payroll export' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = tokenDialog(page, 'edit');
  await expect(edit.getByLabel('Title')).toHaveValue('Payroll export');
  await expect(edit.getByRole('button', { name: '127.0.0.1' })).toBeVisible();
  await edit.getByLabel('Title').fill('Payroll export (read only)');
  await edit.getByRole('button', { name: 'accounts:write' }).locator('svg').click();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Token updated')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Access tokens' })).toContainText('Payroll export (read only)');

  // delete: confirmation, notice, and the program is locked out at once
  await page.getByRole('button', { name: 'Actions for Payroll export (read only)' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete Payroll export (read only)?' }).getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Token deleted')).toBeVisible();
  await expect(page.getByText('No access tokens yet.')).toBeVisible();
  expect((await request.get('/api/v2/accounts?limit=1', asProgram)).status()).toBe(401);
});

test('the access tokens screen lists every account’s tokens and creates one for the signed-in administrator', async ({ page }) => {
  await signIn(page);
  await page.getByRole('navigation').getByRole('link', { name: 'Access Tokens' }).click();
  await expect(page).toHaveURL(/\/access-tokens$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Access Tokens' })).toBeVisible();
  await page.getByRole('button', { name: 'Add Token' }).click();
  const dialog = tokenDialog(page, 'create');
  await dialog.getByLabel('Title').fill('Nightly report');
  await choosePermission(page, dialog, 'tokens:read');
  await expect(dialog.getByRole('group', { name: 'Expires' })).toBeVisible();
  await expect(dialog.locator('input[name=expires_at]')).not.toHaveValue('');
  await dialog.getByRole('button', { name: 'Create token' }).click();
  await page.getByRole('dialog', { name: 'Token Nightly report created' }).getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('table', { name: 'Access tokens' }).getByRole('row', { name: /Nightly report/ });
  await expect(row.getByRole('link', { name: 'admin' })).toBeVisible();
  // an expiry 30 days ahead by default, so 'never' shows only for the last use
  await expect(row.getByText('never')).toHaveCount(1);
  await expectAccessible(page, 'access tokens screen');
  await page.screenshot({ path: 'test-results/access-tokens-screen.png', fullPage: true });
});
