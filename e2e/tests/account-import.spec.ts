import { expect, test, type Page } from '@playwright/test';
import { accountsTable, expectAccessible, signIn } from '../support/console';

const shot = (page: Page, step: string) => page.screenshot({ path: `/tmp/account-import-${step}.png`, fullPage: true });

async function openImport(page: Page) {
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import accounts from CSV' });
  await expect(dialog).toBeVisible();
  return dialog;
}

const csvFile = (name: string, text: string, mimeType = 'text/csv') => ({ name, mimeType, buffer: Buffer.from(text, 'utf-8') });

test('an administrator imports a CSV file, reads the report of its one bad row and finds an imported account', async ({ page }) => {
  const tag = `csv${Date.now().toString(36)}`;
  const lines = [
    'First name;Last name;E-mail;Username;Password',
    `Mary;Jackson;${tag}.mary@example.com;${tag}.mary;wind tunnel 1958`,
    `Dorothy;Vaughan;not-an-address;${tag}.dorothy;fortran programmer`,
    '',
    `Christine;Darden;${tag}.christine@example.com;${tag}.christine;`,
  ];
  await signIn(page);
  const dialog = await openImport(page);
  await dialog.locator('input[type=file]').setInputFiles(csvFile('people.csv', lines.join('\r\n')));
  await expect(dialog.getByText('people.csv')).toBeVisible();
  await expect(dialog.getByRole('switch', { name: 'First row is a header' })).toBeChecked();
  // the preview: the semicolon was detected, the header gives the column titles, 2 rows are shown
  const preview = dialog.getByRole('table', { name: 'Preview of the file' });
  await expect(preview.getByRole('columnheader')).toHaveText(['First name', 'Last name', 'E-mail', 'Username', 'Password']);
  await expect(preview.getByRole('row')).toHaveCount(3);
  await expect(preview.getByRole('cell', { name: `${tag}.mary`, exact: true })).toBeVisible();
  await expect(dialog.getByText('Preview: the first 2 of 3 rows')).toBeVisible();
  await expectAccessible(page, 'import: file');
  await shot(page, '1-file');

  await dialog.getByRole('button', { name: 'Next' }).click();
  // the columns were guessed from the header
  // a select's name is its label (with * when required) followed by its value
  const columnOf = (field: string) => dialog.getByRole('combobox', { name: new RegExp(`^${field} (\\* )?(?!policy)`) });
  for (const [field, column] of [['First name', 'First name'], ['Username', 'Username'], ['Password', 'Password']]) {
    await expect(columnOf(field)).toHaveText(column);
  }
  // a required field without a column keeps Import disabled
  await columnOf('E-mail').click();
  await page.getByRole('option', { name: 'Not mapped' }).click();
  await expect(dialog.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
  await columnOf('E-mail').click();
  await page.getByRole('option', { name: 'E-mail' }).click();
  await expect(dialog.getByRole('button', { name: 'Import', exact: true })).toBeEnabled();
  await expectAccessible(page, 'import: map');
  await shot(page, '2-map');

  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog.getByText('2 created, 1 failed')).toBeVisible();
  const report = dialog.getByRole('table', { name: 'Failed rows' });
  await expect(report.getByRole('row')).toHaveCount(2);
  await expect(report.getByRole('row').nth(1).getByRole('cell')).toHaveText(['3', `${tag}.dorothy`, 'E-mail', 'E-mail must be a valid e-mail address']);
  await expect(dialog.getByRole('button', { name: 'Download report' })).toBeVisible();
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download report' }).click();
  expect((await download).suggestedFilename()).toBe('account-import-report.csv');
  await expectAccessible(page, 'import: report');
  await shot(page, '3-report');

  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('searchbox', { name: 'Search' }).fill(tag);
  await expect(accountsTable(page).getByText(`${tag}.mary@example.com`)).toBeVisible();
  await expect(accountsTable(page).getByText(`${tag}.christine@example.com`)).toBeVisible();
  await expect(page.getByText('Showing 1-2 of 2 records')).toBeVisible();
  await shot(page, '4-list');
});

test('a file of the wrong type is refused, and a broken one is explained by line', async ({ page }) => {
  await signIn(page);
  const dialog = await openImport(page);
  const input = dialog.locator('input[type=file]');
  await input.setInputFiles(csvFile('people.pdf', '%PDF-1.4', 'application/pdf'));
  await expect(dialog.getByText('File type is invalid')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Next' })).toBeDisabled();
  await shot(page, '5-type-invalid');
  // no type from the browser: the name decides
  await input.setInputFiles(csvFile('people.csv', 'a,b\n"c,d\n', ''));
  await expect(dialog.getByText('File type is invalid')).toBeHidden();
  await expect(dialog.getByText('Line 2: a quoted value is not closed')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Next' })).toBeDisabled();
  await input.setInputFiles({ name: 'latin1.csv', mimeType: 'text/csv', buffer: Buffer.from('Vorname,Nachname\nJürgen,Müller\n', 'latin1') });
  await expect(dialog.getByText('The file is not UTF-8 text')).toBeVisible();
  await input.setInputFiles(csvFile('one-column.csv', 'name\nada\ngrace\n'));
  await expect(dialog.getByText(/Every row has one column only/)).toBeVisible();
  // only a hint: a file of one column may still be meant
  await expect(dialog.getByRole('button', { name: 'Next' })).toBeEnabled();
  await shot(page, '6-problems');
});

test('a 10,000-row file is imported in chunks with progress', async ({ page }) => {
  test.setTimeout(180_000);
  const tag = `big${Date.now().toString(36)}`;
  const rows = Array.from({ length: 10_000 }, (_, i) => `Row,${i},${tag}.${i}@example.com,${tag}.${i}`);
  await signIn(page);
  const dialog = await openImport(page);
  await dialog.locator('input[type=file]').setInputFiles(csvFile('big.csv', ['first_name,last_name,email,username', ...rows].join('\n')));
  await expect(dialog.getByText('Preview: the first 2 of 10000 rows')).toBeVisible();
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog.getByRole('progressbar')).toBeVisible();
  await expect(dialog.getByText(/^(500|1000|1500|2000) of 10000 rows$/)).toBeVisible();
  await shot(page, '7-progress');
  await expect(dialog.getByText('10000 created, 0 failed')).toBeVisible({ timeout: 150_000 });
  await shot(page, '8-big-report');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('searchbox', { name: 'Search' }).fill(`${tag}.9999@`);
  await expect(accountsTable(page).getByText(`${tag}.9999@example.com`)).toBeVisible();
});

test('the report names a taken username even on a row with other errors', async ({ page }) => {
  const tag = `csvt${Date.now().toString(36)}`;
  const lines = ['First name;Last name;E-mail;Username;Password', `Taken;Twice;not-an-address;admin;a long enough password`, `Fine;Row;${tag}@example.com;${tag};another long password`];
  await signIn(page);
  const dialog = await openImport(page);
  await dialog.locator('input[type=file]').setInputFiles(csvFile('taken.csv', lines.join('\r\n')));
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog.getByText('1 created, 1 failed')).toBeVisible();
  const report = dialog.getByRole('table', { name: 'Failed rows' });
  await expect(report).toContainText('E-mail must be a valid e-mail address');
  await expect(report).toContainText('This username is already taken');
});
