import { expect, test } from '@playwright/test';
import { expectAccessible, openPasswordPolicies, openPolicyMenu, pickStrength, policyDialog, signIn } from '../support/console';

test('an administrator adds, edits and deletes a password policy', async ({ page }) => {
  const title = `Staff ${Date.now().toString(36)}`;
  await signIn(page);
  await openPasswordPolicies(page);
  const table = page.getByRole('table', { name: 'Password policies' });
  await expect(table.getByRole('row', { name: /Default policy/ })).toBeVisible();
  await expectAccessible(page, 'policies list');

  // the dialog opens with the spec's defaults; the switches reveal their fields
  await page.getByRole('button', { name: 'Add policy' }).click();
  const add = policyDialog(page, 'add');
  await expect(add).toBeVisible();
  await expect(add.getByLabel('Minimum password length')).toHaveValue('6');
  await expect(add.getByLabel('Lockout attempts')).toHaveValue('4');
  await expect(add.getByLabel('Lockout duration (seconds)')).toHaveValue('3600');
  const aging = add.getByRole('switch', { name: 'Enable password aging' });
  const history = add.getByRole('switch', { name: 'Enable password history' });
  await expect(aging).not.toBeChecked();
  await expect(history).not.toBeChecked();
  await expect(add.getByLabel('Age (days)')).toHaveCount(0);
  await expect(add.getByLabel('History length')).toHaveCount(0);
  await aging.check();
  await expect(add.getByLabel('Age (days)')).toHaveValue('90');
  await history.check();
  await expect(add.getByLabel('History length')).toHaveValue('4');
  await expectAccessible(page, 'add policy dialog');

  await add.getByLabel('Title').fill(title);
  await expect(add.getByText(`${title.length}/255`)).toBeVisible();
  await add.getByLabel('Description').fill('Office staff');
  await add.getByLabel('Minimum password length').fill('12');
  await pickStrength(page, add, 3);
  await add.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByText('Policy created')).toBeVisible();
  await expect(add).toBeHidden();
  const row = table.getByRole('row', { name: new RegExp(title) });
  await expect(row).toContainText('Office staff');
  await expect(row).toContainText('90 days');
  await expect(row).toContainText('last 4 passwords');

  // a second policy with the same title (other case): the server's message under the title
  await page.getByRole('button', { name: 'Add policy' }).click();
  await add.getByLabel('Title').fill(title.toUpperCase());
  await add.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(add.getByText('A password policy with this title already exists')).toBeVisible();
  await expectAccessible(page, 'add policy dialog with errors');
  await add.getByRole('button', { name: 'Cancel' }).click();
  await expect(add).toBeHidden();
  // closing resets the form
  await page.getByRole('button', { name: 'Add policy' }).click();
  await expect(add.getByLabel('Title')).toHaveValue('');
  await add.getByRole('button', { name: 'Cancel' }).click();

  // edit: the switches follow the stored values
  await openPolicyMenu(page, title);
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = policyDialog(page, 'edit');
  await expect(edit.getByLabel('Title')).toHaveValue(title);
  await expect(edit.getByRole('switch', { name: 'Enable password aging' })).toBeChecked();
  await expect(edit.getByRole('switch', { name: 'Enable password history' })).toBeChecked();
  await expect(edit.getByLabel('Minimum password length')).toHaveValue('12');
  await edit.getByRole('switch', { name: 'Enable password history' }).uncheck();
  await edit.getByLabel('Age (days)').fill('30');
  await edit.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByText('Policy updated')).toBeVisible();
  await expect(edit).toBeHidden();

  // kept on the server: after a reload the row and the dialog show the stored values
  await page.reload();
  await expect(row).toContainText('30 days');
  await openPolicyMenu(page, title);
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  await expect(edit.getByRole('switch', { name: 'Enable password history' })).not.toBeChecked();
  await expect(edit.getByRole('switch', { name: 'Enable password aging' })).toBeChecked();
  await expect(edit.getByLabel('Age (days)')).toHaveValue('30');
  await edit.getByRole('button', { name: 'Cancel' }).click();

  // delete after confirmation
  await openPolicyMenu(page, title);
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: `Delete policy "${title}"?` });
  await expect(confirm).toContainText('Are you sure you want to delete this policy?');
  await expectAccessible(page, 'delete confirmation');
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Policy deleted')).toBeVisible();
  await expect(table.getByRole('row', { name: new RegExp(title) })).toHaveCount(0);
});
