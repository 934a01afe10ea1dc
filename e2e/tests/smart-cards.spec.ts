import { expect, test } from '@playwright/test';
import { createAccountThroughRest, expectAccessible, newAccount, newCardUid, openAccount, postScanAsReader, registerReaderThroughRest, restToken, signIn } from '../support/console';

test('a card scanned at an enrollment reader while "Add a smartcard" waits is added to the account, then removed', async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const account = newAccount('card');
  await createAccountThroughRest(request, account);
  const desk = await registerReaderThroughRest(request, { name: `Front desk ${tag}`, door: 'Reception', role: 'enrollment' });
  const uid = newCardUid();
  let sequence = 0;

  await signIn(page);
  await openAccount(page, account);
  await page.getByRole('tab', { name: 'Smart cards' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'SmartCards' })).toBeVisible();
  const cards = page.getByRole('table', { name: 'Smart cards of this account' });
  await expect(cards).toContainText('This account has no smart card yet.');

  // Cancel ends register mode: a card scanned afterwards registers nowhere
  await page.getByRole('button', { name: 'Add Smartcard' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a smartcard' });
  await expect(dialog).toContainText('Scan a card in order to add it');
  await expect(dialog).toContainText(/waiting for the card until/);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  const headers = { authorization: `Bearer ${await restToken(request)}` };
  await expect.poll(async () => (await (await request.get(`/api/v2/readers/${desk.id}`, { headers })).json()).data.register_mode).toBeNull();
  expect((await postScanAsReader(request, desk.token, { card_uid: uid, sequence: ++sequence })).outcome).toBe('unknown_card');

  // Add: the dialog waits; the scan at the desk registers the card, the dialog closes by itself
  await page.getByRole('button', { name: 'Add Smartcard' }).click();
  await expect(dialog).toContainText(/waiting for the card until/);
  // (no axe check here: the waiting bar animates for as long as the dialog waits)
  await page.screenshot({ path: '/tmp/sc/add-dialog.png' });
  expect((await postScanAsReader(request, desk.token, { card_uid: uid, sequence: ++sequence })).outcome).toBe('card_registered');
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Smart card ${uid} added`)).toBeVisible();
  await expect(cards.getByRole('row', { name: new RegExp(uid) })).toBeVisible();
  await expectAccessible(page, 'smart cards tab');
  await page.screenshot({ path: '/tmp/sc/smart-cards-tab.png', fullPage: true });

  // Remove card, with the spec's confirmation
  await page.getByRole('button', { name: `Actions for card ${uid}` }).click();
  await page.getByRole('menuitem', { name: 'Remove card' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm removal' });
  await expect(confirm).toContainText(`Are you sure you want to remove card ${uid} ?`);
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText(`Card ${uid} removed`)).toBeVisible();
  await expect(cards.getByRole('row', { name: new RegExp(uid) })).toHaveCount(0);
});

test('an administrator registers a door reader and sees its token once, renames, moves and revokes it, then deletes it', async ({ page, request }) => {
  const name = `Lobby ${Date.now().toString(36)}`;
  await signIn(page);
  await page.getByRole('navigation').getByRole('link', { name: 'Door readers' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Door readers' })).toBeVisible();

  await page.getByRole('button', { name: 'Register reader' }).click();
  const register = page.getByRole('dialog', { name: 'Register a reader' });
  await register.getByRole('textbox', { name: 'Name' }).fill(name);
  await register.getByRole('textbox', { name: 'Door' }).fill('Main entrance');
  await register.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Door' }).click();
  await register.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(page.getByText(`Reader ${name} registered`)).toBeVisible();

  // the token, shown this once: it opens the reader protocol
  const shown = page.getByRole('dialog', { name: `Token of ${name}` });
  await expect(shown).toContainText('shown only this once');
  const token = await shown.getByRole('textbox', { name: 'Reader token' }).inputValue();
  expect(token).toMatch(/^rcr_/);
  await expectAccessible(page, 'reader token dialog');
  await page.screenshot({ path: '/tmp/sc/reader-token.png' });
  const health = () => request.post('/api/v2/reader/health', { data: { sent_at: new Date().toISOString(), queue_depth: 3, oldest_queued_at: null, last_sequence: 0, device_connected: true, agent_version: 'e2e' }, headers: { authorization: `Bearer ${token}` } });
  expect((await health()).status()).toBe(200);
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toBeHidden();

  // the list shows the reader, what it reported, and the token only by its prefix
  const readers = page.getByRole('table', { name: 'Door readers' });
  const row = readers.getByRole('row', { name: new RegExp(name) });
  await page.reload();
  // found by name: the list's first page holds the readers other scenarios registered before it (sorted by name)
  await page.getByLabel('Search by name or door').fill(name);
  await expect(row).toContainText('Main entrance');
  await expect(row).toContainText('Online');
  await expect(row).toContainText(token.slice(0, 12));
  await expect(row).not.toContainText(token);
  await expectAccessible(page, 'readers page');
  await page.screenshot({ path: '/tmp/sc/readers-page.png', fullPage: true });

  // rename and move it; revoke its token: the reader is refused from its next request
  const renamed = `${name} (east)`;
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Rename or move' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit reader' });
  await edit.getByRole('textbox', { name: 'Name' }).fill(renamed);
  await edit.getByRole('textbox', { name: 'Door' }).fill('East wing');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`Reader ${renamed} saved`)).toBeVisible();
  const renamedRow = readers.getByRole('row', { name: new RegExp(renamed.replace(/[()]/g, '\\$&')) });
  await expect(renamedRow).toContainText('East wing');
  await page.getByRole('button', { name: `Actions for ${renamed}` }).click();
  await page.getByRole('menuitem', { name: 'Revoke token' }).click();
  await page.getByRole('dialog', { name: `Revoke the token of ${renamed}?` }).getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Reader token revoked')).toBeVisible();
  await expect(renamedRow).toContainText('No token');
  expect((await health()).status()).toBe(401);

  // delete, with a confirmation
  await page.getByRole('button', { name: `Actions for ${renamed}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: `Delete ${renamed}?` }).getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText(`Reader ${renamed} deleted`)).toBeVisible();
  await expect(renamedRow).toHaveCount(0);
});

test("Add a smartcard says whose a scanned card is when another account holds it, waits on, and leaving the tab or the page ends register mode", async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const alice = { ...newAccount('holder'), first_name: 'Alice' };
  const aliceId = await createAccountThroughRest(request, alice);
  const bob = newAccount('wanting');
  await createAccountThroughRest(request, bob);
  const desk = await registerReaderThroughRest(request, { name: `Desk ${tag}`, door: 'HR', role: 'enrollment' });
  const headers = { authorization: `Bearer ${await restToken(request)}` };
  const uid = newCardUid();
  let sequence = 0;
  expect((await request.post(`/api/v1/scanner/mode/register/${aliceId}`, { headers })).status()).toBe(200);
  expect((await postScanAsReader(request, desk.token, { card_uid: uid, sequence: ++sequence })).outcome).toBe('card_registered');
  const armedFor = async () => (await (await request.get(`/api/v2/readers/${desk.id}`, { headers })).json()).data.register_mode?.account_id ?? null;

  await signIn(page);
  await openAccount(page, bob);
  await page.getByRole('tab', { name: 'Smart cards' }).click();
  await page.getByRole('button', { name: 'Add Smartcard' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a smartcard' });
  await expect(dialog).toContainText(/waiting for the card until/);
  expect((await postScanAsReader(request, desk.token, { card_uid: uid, sequence: ++sequence })).outcome).toBe('card_taken');
  await expect(dialog.getByRole('alert')).toContainText(`Card ${uid} belongs to Alice ${alice.last_name}: it was not added.`);
  await expect(dialog.getByRole('alert').getByRole('link', { name: `Alice ${alice.last_name}` })).toHaveAttribute('href', `/accounts/profile/${aliceId}`);
  // still waiting for the right card
  await expect(dialog).toContainText(/waiting for the card until/);
  await page.screenshot({ path: '/tmp/sc/card-taken.png' });

  // leaving the screen (the browser's Back, to the accounts list) ends register mode: the next card does not go to Bob
  await page.goBack();
  await expect(page).toHaveURL(/\/accounts(\?|$)/);
  await expect.poll(armedFor).toBeNull();

  // so does a reload (or a closed tab) with the dialog open
  await openAccount(page, bob);
  await page.getByRole('tab', { name: 'Smart cards' }).click();
  await page.getByRole('button', { name: 'Add Smartcard' }).click();
  await expect(dialog).toContainText(/waiting for the card until/);
  expect(await armedFor()).not.toBeNull();
  await page.reload();
  await expect.poll(armedFor).toBeNull();
  expect((await postScanAsReader(request, desk.token, { card_uid: newCardUid(), sequence: ++sequence })).outcome).toBe('unknown_card');
});
