import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectAccessible, restToken, signIn } from '../support/console';

/** opens /applications from the drawer */
async function openApplications(page: Page): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name: 'Applications' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Applications' })).toBeVisible();
}

/** a permission row of the details page, by the slug in its title field */
function permissionRow(page: Page, slug: string): Locator {
  return page.getByRole('form', { name: `Permission ${slug}` });
}

test('an administrator registers an application with a scope, gives it permissions and a role, and removes them again', async ({ page, request }) => {
  const suffix = Date.now().toString(36);
  const title = `Customer portal ${suffix}`;

  await signIn(page);
  await openApplications(page);
  await expect(page.getByText(/^Showing \d+-\d+ of \d+ records$/)).toBeVisible();
  await expectAccessible(page, 'applications list');

  // 'Create a new application': the server's field errors land under URL and scopes
  await page.getByRole('button', { name: 'Add application' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create a new application' });
  await dialog.getByRole('textbox', { name: 'Title' }).fill(title);
  await expect(dialog.getByText(`${title.length}/255`)).toBeVisible();
  await dialog.getByRole('textbox', { name: 'URL' }).fill('portal.example.com');
  await dialog.getByRole('button', { name: 'Add scope' }).click();
  await dialog.getByRole('textbox', { name: 'Scope 1' }).fill('Portal Access');
  await dialog.getByRole('button', { name: 'Create App' }).click();
  await expect(dialog.getByText('URL must be an http or https address')).toBeVisible();
  await expect(dialog.getByText(/Scope Portal Access may hold lowercase letters/)).toBeVisible();
  await dialog.getByRole('textbox', { name: 'URL' }).fill('https://portal.example.com');
  await dialog.getByRole('textbox', { name: 'Scope 1' }).fill('portal');
  await dialog.getByRole('textbox', { name: 'Description' }).last().fill('Use the customer portal');
  await expectAccessible(page, 'create application dialog');
  await dialog.getByRole('button', { name: 'Create App' }).click();
  await expect(dialog).toBeHidden();

  // the confidential client's secret, once
  const secretDialog = page.getByRole('dialog', { name: 'Client secret' });
  await expect(secretDialog.getByText('shown only this once')).toBeVisible();
  const secret = await secretDialog.getByRole('textbox', { name: 'Client secret' }).inputValue();
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await secretDialog.getByRole('button', { name: 'I have copied it' }).click();
  await expect(secretDialog).toBeHidden();

  await page.getByRole('searchbox', { name: 'Search' }).fill(suffix);
  await page.getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Application details' })).toBeVisible();
  const applicationId = new URL(page.url()).pathname.split('/').pop() ?? '';
  await expect(page.getByText(applicationId).first()).toBeVisible();

  // basic info
  await page.getByRole('textbox', { name: 'Description' }).first().fill('Orders and invoices');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Basic app info updated')).toBeVisible();

  // permissions: per-row save; a slug taken twice is refused under the field
  await page.getByRole('button', { name: 'Add Permission' }).click();
  await permissionRow(page, 'new permission').getByRole('textbox', { name: 'Permission title' }).fill('orders.read');
  await permissionRow(page, 'new permission').getByRole('textbox', { name: 'Description. Shown in user consent form' }).fill('See your orders');
  await permissionRow(page, 'new permission').getByRole('button', { name: 'Save permission new permission' }).click();
  await expect(page.getByText('Permission created!')).toBeVisible();
  await expect(permissionRow(page, 'orders.read')).toBeVisible();
  await page.getByRole('button', { name: 'Add Permission' }).click();
  await permissionRow(page, 'new permission').getByRole('textbox', { name: 'Permission title' }).fill('orders.read');
  await permissionRow(page, 'new permission').getByRole('button', { name: 'Save permission new permission' }).click();
  await expect(permissionRow(page, 'new permission').getByText('The slug orders.read is already used by another permission of this application')).toBeVisible();
  await permissionRow(page, 'new permission').getByRole('textbox', { name: 'Permission title' }).fill('orders.write');
  await permissionRow(page, 'new permission').getByRole('button', { name: 'Save permission new permission' }).click();
  await expect(permissionRow(page, 'orders.write')).toBeVisible();
  await permissionRow(page, 'orders.write').getByRole('textbox', { name: 'Description. Shown in user consent form' }).fill('Change your orders');
  await permissionRow(page, 'orders.write').getByRole('button', { name: 'Save permission orders.write' }).click();
  await expect(page.getByText('Permission updated')).toBeVisible();

  // a role with one permission; the other switched on in its expanded row, with the relation id the API answered
  await page.getByRole('button', { name: 'Add Role' }).click();
  const roleDialog = page.getByRole('dialog', { name: 'Create new role for an application' });
  await roleDialog.getByRole('textbox', { name: 'Title' }).fill('Clerk');
  await roleDialog.getByRole('textbox', { name: 'Slug' }).fill('clerk');
  await roleDialog.getByRole('combobox', { name: 'Permissions' }).click();
  await page.getByRole('option', { name: /orders\.read/ }).click();
  await page.keyboard.press('Escape');
  await roleDialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByText('Role created successfully')).toBeVisible();
  await page.getByRole('button', { name: 'Permissions of Clerk' }).click();
  const switches = page.getByRole('group', { name: 'Permissions of Clerk' });
  await expect(switches.getByRole('switch', { name: 'orders.read' })).toBeChecked();
  await switches.getByRole('switch', { name: 'orders.write' }).check();
  await expect(page.getByText('Permission orders.write enabled for the role')).toBeVisible();
  await expect(switches.getByRole('switch', { name: 'orders.write' })).toBeChecked();
  await expect(switches.getByRole('switch', { name: 'orders.write' })).toBeEnabled();
  const token = await restToken(request);
  const stored = await (await request.get(`/api/v2/application/${applicationId}`, { headers: { authorization: `Bearer ${token}` } })).json();
  expect(stored.data.roles[0].permissions).toHaveLength(2);
  await switches.getByRole('switch', { name: 'orders.read' }).uncheck();
  await expect(page.getByText('Permission orders.read disabled for the role')).toBeVisible();
  await expect(switches.getByRole('switch', { name: 'orders.read' })).not.toBeChecked();
  await expectAccessible(page, 'application details');

  // inline 'Update Title'
  await page.getByRole('button', { name: 'Update Title of Clerk' }).click();
  await page.getByRole('textbox', { name: 'Title' }).last().fill('Senior clerk');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Role title updated')).toBeVisible();

  // role deletion after 'Remove (Senior clerk) from application'
  await page.getByRole('button', { name: 'Actions for Senior clerk' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove (Senior clerk) from application' });
  await expect(confirm.getByText('Are you sure you want to delete this role?')).toBeVisible();
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Role deleted successfully')).toBeVisible();
  await expect(page.getByText('This application has no roles yet')).toBeVisible();

  // permission removal needs a confirmation too
  await permissionRow(page, 'orders.read').getByRole('button', { name: 'Remove permission orders.read' }).click();
  await page.getByRole('dialog', { name: 'Remove permission orders.read?' }).getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Permission deleted')).toBeVisible();
  await expect(permissionRow(page, 'orders.read')).toBeHidden();

  // the application itself
  await page.getByRole('button', { name: 'Delete application' }).click();
  await page.getByRole('dialog', { name: `Delete ${title}?` }).getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Applications' })).toBeVisible();
  await expect(page.getByText(`Application ${title} deleted`)).toBeVisible();
  const gone = await request.get(`/api/v2/application/${applicationId}`, { headers: { authorization: `Bearer ${token}` } });
  expect(gone.status()).toBe(404);
});
