import { expect, test } from '@playwright/test';
import { expectAccessible, signIn } from '../support/console';

test('registering a door reader shows its id beside the token, and the agent configuration ready to copy; the row and the edit dialog show the id', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const name = `Gate ${Date.now().toString(36)}`;
  await signIn(page);
  await page.getByRole('navigation').getByRole('link', { name: 'Door readers' }).click();
  await page.getByRole('button', { name: 'Register reader' }).click();
  const register = page.getByRole('dialog', { name: 'Register a reader' });
  await register.getByRole('textbox', { name: 'Name' }).fill(name);
  await register.getByRole('textbox', { name: 'Door' }).fill('Gate');
  await register.getByRole('button', { name: 'Register', exact: true }).click();

  const shown = page.getByRole('dialog', { name: `Token of ${name}` });
  const readerId = await shown.getByRole('textbox', { name: 'Reader id' }).inputValue();
  expect(readerId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  const token = await shown.getByRole('textbox', { name: 'Reader token' }).inputValue();
  const snippet = await shown.getByRole('textbox', { name: /Door agent configuration/ }).inputValue();
  expect(snippet).toContain(`ROLLCALL_AGENT_READER_ID=${readerId}`);
  expect(snippet).toContain(`ROLLCALL_AGENT_TOKEN=${token}`);
  expect(snippet).toMatch(/^ROLLCALL_AGENT_SERVER_URL=http:\/\/127\.0\.0\.1:\d+$/m);
  await shown.getByRole('button', { name: 'Copy configuration' }).click();
  await expect(shown).toContainText('Copied to the clipboard');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(snippet);
  await shown.getByRole('button', { name: 'Copy reader id' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(readerId);
  await expectAccessible(page, 'reader token dialog');
  await page.screenshot({ path: '/tmp/sc/reader-token-id.png' });
  await shown.getByRole('button', { name: 'Done' }).click();

  // the row: the id's last characters, the whole id on hover and by its copy button
  const row = page.getByRole('table', { name: 'Door readers' }).getByRole('row', { name: new RegExp(name) });
  await expect(row.getByTitle(readerId)).toHaveText(readerId.slice(-8));
  await row.getByRole('button', { name: `Copy the whole id ${readerId}` }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(readerId);

  // the reader's details (Rename or move) show it whole
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Rename or move' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit reader' });
  await expect(edit).toContainText('Reader id');
  await expect(edit).toContainText(readerId);
});
