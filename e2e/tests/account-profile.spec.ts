import { expect, test, type Locator, type Page } from '@playwright/test';
import { createAccountThroughRest, expectAccessible, newAccount, openAccount, profileForm, restToken, signIn, TINY_PNG } from '../support/console';

/** the birth date picker: typed section by section as DD.MM.YYYY, as an admin would */
function birthDate(page: Page) {
  return profileForm(page).getByRole('group', { name: 'Birth date' });
}

async function typeBirthDate(page: Page, shown: string): Promise<void> {
  await birthDate(page).getByRole('spinbutton', { name: 'Day' }).click();
  await page.keyboard.type(shown);
}

/** the value the picker holds, as the admin reads it */
function birthDateValue(page: Page) {
  return profileForm(page).locator('input[name=birth_date]');
}

async function fillProfile(page: Page, profile: { middleName: string; nickname: string; birthDate: string; website: string; timeZone: string }): Promise<void> {
  const form = profileForm(page);
  await form.getByLabel('Middle name').fill(profile.middleName);
  await form.getByLabel('Nickname').fill(profile.nickname);
  await typeBirthDate(page, profile.birthDate);
  await form.getByLabel('Website').fill(profile.website);
  await form.getByRole('combobox', { name: 'Gender' }).click();
  await page.getByRole('option', { name: 'Female' }).click();
  await form.getByRole('combobox', { name: 'Locale' }).click();
  await page.getByRole('option', { name: 'German' }).click();
  await form.getByRole('combobox', { name: 'Time zone' }).fill(profile.timeZone);
  await page.getByRole('option', { name: profile.timeZone, exact: true }).click();
}

/** row n (from 1) of the telephone or e-mail list of the form */
function contactRow(page: Page, list: 'Telephone' | 'E-mail addresses', n: number) {
  return profileForm(page).getByRole('group', { name: `${list} ${n}`, exact: true });
}

async function fillContact(page: Page, row: Locator, value: string, type: string): Promise<void> {
  await row.getByRole('textbox').fill(value);
  await row.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: type, exact: true }).click();
}

/** the card's list under a heading: each entry's value and its type label */
function cardList(page: Page, title: 'Telephone' | 'E-mail addresses') {
  return page.locator('h3', { hasText: title }).locator('xpath=following-sibling::*[1]');
}

/** set E2E_SCREENSHOT_DIR to keep pictures of the screen for a look by eye */
async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOT_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

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
  await fillProfile(page, { middleName: 'Lise', nickname: 'Meitner', birthDate: '07.11.1978', website: 'https://lise.example.com', timeZone: 'Europe/Berlin' });
  await expect(birthDateValue(page)).toHaveValue('07.11.1978');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Account saved')).toBeVisible();
  await page.reload();
  const form = profileForm(page);
  await expect(form.getByLabel('Middle name')).toHaveValue('Lise');
  await expect(form.getByLabel('Nickname')).toHaveValue('Meitner');
  await expect(birthDateValue(page)).toHaveValue('07.11.1978');
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
  await expect(page.getByRole('button', { name: 'Change profile picture' }).locator('img')).toHaveAttribute('src', /^data:image\/png;base64,/);

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

test("an administrator erases an account's personal data: gone from the list, its history kept as an erased person", async ({ page, request }) => {
  const account = newAccount('erased');
  const id = await createAccountThroughRest(request, account);
  await signIn(page);
  await openAccount(page, account);
  await page.getByRole('button', { name: 'Erase personal data' }).click();
  const confirm = page.getByRole('dialog', { name: `Erase the personal data of ${account.first_name} ${account.last_name}?` });
  await expect(confirm.getByText(/This cannot be undone/)).toBeVisible();
  await expectAccessible(page, 'erase confirmation');
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Personal data erased')).toBeVisible();
  await expect(page).toHaveURL(/\/accounts$/);
  await page.getByLabel('Search').fill(account.email);
  await expect(page.getByText('No accounts found')).toBeVisible();
  // the history keeps every event, the creation now naming an erased person
  const history = await request.get(`/api/v2/account/${id}/history`, { headers: { authorization: `Bearer ${await restToken(request)}` } });
  const entries = (await history.json()).data.data as Array<{ type: string; changes: Array<{ field: string; after: string | null }> }>;
  expect(entries.map((entry) => entry.type)).toEqual(['AccountPersonalDataErased', 'AccountDeleted', 'AccountCreated']);
  expect(JSON.stringify(entries)).not.toContain(account.last_name);
  expect(entries[2].changes).toContainEqual({ field: 'first name', before: null, after: 'Erased' });
});

test('the protected administrator cannot be deleted', async ({ page }) => {
  await signIn(page);
  await page.getByRole('button', { name: /User menu of/ }).click();
  await page.getByRole('menuitem', { name: 'Account settings' }).click();
  await expect(page.getByRole('button', { name: 'Delete account' })).toBeDisabled();
});

test('an administrator keeps a birth date, telephones and e-mail addresses, and removes the picture', async ({ page, request }) => {
  const account = newAccount('mary');
  await createAccountThroughRest(request, account);
  await signIn(page);
  await openAccount(page, account);
  await expect(contactRow(page, 'Telephone', 1)).toHaveCount(0);
  // a new account's list starts with its own address
  await expect(contactRow(page, 'E-mail addresses', 1).getByRole('textbox')).toHaveValue(account.email);
  await screenshot(page, 'profile-empty-en');
  if (process.env.E2E_SCREENSHOT_DIR) {
    await page.evaluate(() => window.localStorage.setItem('rollcall.language', 'de'));
    await page.reload();
    await screenshot(page, 'profile-empty-de');
    await page.evaluate(() => window.localStorage.setItem('rollcall.language', 'en'));
    await page.reload();
  }

  // a birth date typed day.month.year, a mobile number, a home number and a work address
  await typeBirthDate(page, '24.12.1990');
  await expect(birthDateValue(page)).toHaveValue('24.12.1990');
  await page.getByRole('button', { name: 'Add telephone' }).click();
  await fillContact(page, contactRow(page, 'Telephone', 1), '+49 30 1234567', 'Mobile');
  await page.getByRole('button', { name: 'Add telephone' }).click();
  await fillContact(page, contactRow(page, 'Telephone', 2), '+49 89 7654321', 'Home');
  await page.getByRole('button', { name: 'Add e-mail address' }).click();
  await fillContact(page, contactRow(page, 'E-mail addresses', 2), 'mary@work.example.com', 'Work');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Account saved')).toBeVisible();

  await page.reload();
  await expect(birthDateValue(page)).toHaveValue('24.12.1990');
  await expect(contactRow(page, 'Telephone', 1).getByRole('textbox')).toHaveValue('+49 30 1234567');
  await expect(contactRow(page, 'Telephone', 1).getByRole('combobox', { name: 'Type' })).toHaveText('Mobile');
  await expect(contactRow(page, 'Telephone', 2).getByRole('textbox')).toHaveValue('+49 89 7654321');
  await expect(contactRow(page, 'E-mail addresses', 2).getByRole('textbox')).toHaveValue('mary@work.example.com');
  await expect(contactRow(page, 'E-mail addresses', 2).getByRole('combobox', { name: 'Type' })).toHaveText('Work');
  await expect(cardList(page, 'Telephone').getByRole('listitem')).toHaveText(['+49 30 1234567Mobile', '+49 89 7654321Home']);
  await expect(cardList(page, 'E-mail addresses').getByRole('listitem')).toHaveText([`${account.email}Work`, 'mary@work.example.comWork']);
  await expectAccessible(page, 'profile with contacts');
  await screenshot(page, 'profile-filled-en');

  // an empty number: the server's message under that row, the others untouched
  await page.getByRole('button', { name: 'Add telephone' }).click();
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(contactRow(page, 'Telephone', 3).getByRole('textbox')).toHaveAttribute('aria-invalid', 'true');
  await expect(contactRow(page, 'Telephone', 1).getByRole('textbox')).toHaveAttribute('aria-invalid', 'false');
  await expectAccessible(page, 'contact row with an error');
  await screenshot(page, 'profile-contact-error-en');

  // remove the empty row and the mobile number: the home number stays
  await page.getByRole('button', { name: 'Remove Telephone 3' }).click();
  await page.getByRole('button', { name: 'Remove Telephone 1' }).click();
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Account saved')).toBeVisible();
  await page.reload();
  await expect(contactRow(page, 'Telephone', 1).getByRole('textbox')).toHaveValue('+49 89 7654321');
  await expect(contactRow(page, 'Telephone', 2)).toHaveCount(0);
  await expect(cardList(page, 'Telephone').getByRole('listitem')).toHaveText(['+49 89 7654321Home']);
  await expect(birthDateValue(page)).toHaveValue('24.12.1990');

  // a picture, then its removal after confirmation: the initials come back
  const avatar = page.getByRole('button', { name: 'Change profile picture' });
  await page.getByTestId('profile-picture-input').setInputFiles({ name: 'mary.png', mimeType: 'image/png', buffer: TINY_PNG });
  await expect(page.getByText('Profile picture updated')).toBeVisible();
  await expect(avatar.locator('img')).toHaveAttribute('src', /^data:image\/png;base64,/);
  await page.getByRole('button', { name: 'Remove picture' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove the profile picture?' });
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Picture removed')).toBeVisible();
  await expect(avatar.locator('img')).toHaveCount(0);
  await expect(avatar).toContainText('KJ');
  await expect(page.getByRole('button', { name: 'Remove picture' })).toHaveCount(0);

  // the same screen in German: the date stays day.month.year
  await page.evaluate(() => window.localStorage.setItem('rollcall.language', 'de'));
  await page.reload();
  const german = page.getByRole('form', { name: 'Profil' });
  await expect(german.getByRole('group', { name: 'Geburtsdatum' })).toBeVisible();
  await expect(german.locator('input[name=birth_date]')).toHaveValue('24.12.1990');
  await expect(german.getByRole('button', { name: 'Telefon hinzufügen' })).toBeVisible();
  await screenshot(page, 'profile-filled-de');
});
