import { expect, test } from '@playwright/test';
import { createAccountThroughRest, expectAccessible, fillProfile, newAccount, openAccount, profileForm, signIn, TINY_PNG } from '../support/console';

test('an administrator edits a profile, sets a picture and deletes the account', async ({ page, request }) => {
  const account = newAccount('lise');
  await createAccountThroughRest(request, account);
  await signIn(page);
  await openAccount(page, account);

  // the card: names, status, never signed in
  await expect(page.getByRole('heading', { level: 2, name: `${account.first_name} ${account.last_name}` })).toBeVisible();
  await expect(page.getByText(account.username, { exact: true })).toBeVisible();
  await expect(page.getByText('Never')).toBeVisible();
  await expectAccessible(page, 'account profile');

  // edit, save, see the notice; a reload shows the stored values
  await fillProfile(page, { middleName: 'Lise', nickname: 'Meitner', birthDate: '1978-11-07', website: 'https://lise.example.com', timeZone: 'Europe/Berlin' });
  await expect(profileForm(page).getByText('07.11.1978')).toBeVisible();
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Account saved')).toBeVisible();
  await page.reload();
  const form = profileForm(page);
  await expect(form.getByLabel('Middle name')).toHaveValue('Lise');
  await expect(form.getByLabel('Nickname')).toHaveValue('Meitner');
  await expect(form.getByLabel('Birth date')).toHaveValue('1978-11-07');
  await expect(form.getByLabel('Website')).toHaveValue('https://lise.example.com');
  await expect(form.getByRole('combobox', { name: 'Time zone' })).toHaveValue('Europe/Berlin');
  await expect(form.getByRole('combobox', { name: 'Gender' })).toHaveText('Female');
  await expect(form.getByRole('combobox', { name: 'Locale' })).toHaveText('German');

  // the server's message under the field
  await form.getByLabel('Website').fill('ftp://lise.example.com');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(form.getByText('Website must be an http or https address')).toBeVisible();
  await expectAccessible(page, 'profile form with errors');
  await form.getByLabel('Website').fill('https://lise.example.com');

  // the avatar: pick a PNG, it is shown
  await page.getByTestId('profile-picture-input').setInputFiles({ name: 'lise.png', mimeType: 'image/png', buffer: TINY_PNG });
  await expect(page.getByText('Profile picture updated')).toBeVisible();
  await expect(page.getByRole('img', { name: `${account.first_name} ${account.last_name}` })).toHaveAttribute('src', /^data:image\/png;base64,/);

  // delete after confirmation: the server's message, back to the list, gone from it
  await page.getByRole('button', { name: 'Delete account' }).click();
  const confirm = page.getByRole('dialog', { name: `Delete ${account.first_name} ${account.last_name}?` });
  await expectAccessible(page, 'delete confirmation');
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText(`Account ${account.first_name} ${account.last_name} deleted`)).toBeVisible();
  await expect(page).toHaveURL(/\/accounts$/);
  await page.getByLabel('Search').fill(account.email);
  await expect(page.getByText('No accounts found')).toBeVisible();
});

test('the protected administrator cannot be deleted', async ({ page }) => {
  await signIn(page);
  await page.getByRole('button', { name: /User menu of/ }).click();
  await page.getByRole('menuitem', { name: 'Account settings' }).click();
  await expect(page.getByRole('button', { name: 'Delete account' })).toBeDisabled();
});
