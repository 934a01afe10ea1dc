import { expect, test, type APIRequestContext } from '@playwright/test';
import { createAccountThroughRest, expectAccessible, newAccount, newCardUid, pickOption, postScanAsReader, registerReaderThroughRest, restToken, signIn } from '../support/console';

const unknownCards = async (request: APIRequestContext) => {
  const answer = await request.get('/api/v2/scanner/unknown-cards', { headers: { authorization: `Bearer ${await restToken(request)}` } });
  return ((await answer.json()).data as Array<{ card_uid: string }>).map((card) => card.card_uid);
};

test('an unknown card is told live on the door screens and is assigned to its owner or dismissed on the unknown cards screen', async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const owner = newAccount('owner');
  await createAccountThroughRest(request, owner);
  const ownerName = `${owner.first_name} ${owner.last_name}`;
  const door = await registerReaderThroughRest(request, { name: `Side ${tag}`, door: `Side door ${tag}`, role: 'door' });
  const lost = newCardUid();
  const visitor = newCardUid();
  let sequence = 0;

  await signIn(page);
  // at the arrivals / departures log: the scan of a card nobody holds says which card, where and when
  await page.getByRole('navigation').getByRole('link', { name: 'Arrivals / Departures' }).click();
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  expect((await postScanAsReader(request, door.token, { card_uid: lost, sequence: ++sequence })).outcome).toBe('unknown_card');
  await expect(page.getByRole('status').getByText(new RegExp(`Unknown card ${lost} scanned at Side door ${tag} at \\d\\d:\\d\\d:\\d\\d UTC([+-]\\d{1,2}(:\\d\\d)?)?\\.`))).toBeVisible();

  // on the presence board too. The notice told on the log is still there (notices are the console's,
  // not one screen's: a scan told while the board was loading reached only the log, and the board then
  // missed it), and a second scan of the same card is told on the board, as one notice
  await page.getByRole('navigation').getByRole('link', { name: 'Presence' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Presence' })).toBeVisible();
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  const notices = page.getByRole('status').getByRole('alert');
  await expect(notices.filter({ hasText: `Unknown card ${lost} scanned at Side door ${tag}` })).toHaveCount(1);
  await notices.filter({ hasText: `Unknown card ${lost}` }).getByRole('button', { name: 'Dismiss' }).click();
  await expect(notices).toHaveCount(0);
  expect((await postScanAsReader(request, door.token, { card_uid: lost, sequence: ++sequence })).outcome).toBe('unknown_card');
  await expect(notices.filter({ hasText: `Unknown card ${lost} scanned at Side door ${tag}` })).toHaveCount(1);

  // the notice leads to the list
  await page.getByRole('status').getByRole('link', { name: 'Open unknown cards' }).click();
  // where it was seen, when, how many times
  await expect(page.getByRole('heading', { level: 1, name: 'Unknown cards' })).toBeVisible();
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Unknown cards' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Unknown cards' });
  const lostRow = table.getByRole('row', { name: new RegExp(lost) });
  await expect(lostRow).toContainText(`Side door ${tag} · Side ${tag}`);
  await expect(lostRow.getByRole('cell').nth(3)).toHaveText('2');
  // a new one appears as it is scanned
  expect((await postScanAsReader(request, door.token, { card_uid: visitor, sequence: ++sequence })).outcome).toBe('unknown_card');
  await expect(table.getByRole('row', { name: new RegExp(visitor) })).toBeVisible();
  await expectAccessible(page, 'unknown cards');

  // assign: the card is registered to its owner and counts at the door from then on
  await lostRow.getByRole('button', { name: `Assign card ${lost} to an account` }).click();
  const assign = page.getByRole('dialog', { name: `Assign card ${lost}` });
  await assign.getByRole('button', { name: 'Assign card' }).click();
  await expect(assign.getByText('Pick an account')).toBeVisible();
  await pickOption(page, assign.getByRole('combobox', { name: 'Account' }), owner.username, ownerName);
  await assign.getByRole('button', { name: 'Assign card' }).click();
  await expect(assign).toBeHidden();
  await expect(page.getByText(`Card ${lost} registered to ${ownerName}`)).toBeVisible();
  await expect(table.getByRole('row', { name: new RegExp(lost) })).toHaveCount(0);
  expect((await postScanAsReader(request, door.token, { card_uid: lost, sequence: ++sequence })).outcome).toBe('arrival');

  // dismiss, with a reason: gone from the list (and the API's), listed again at its next scan
  await table.getByRole('row', { name: new RegExp(visitor) }).getByRole('button', { name: `Dismiss card ${visitor}` }).click();
  const dismiss = page.getByRole('dialog', { name: `Dismiss card ${visitor}` });
  await dismiss.getByRole('textbox', { name: 'Reason (optional)' }).fill('A visitor’s hotel key card');
  await dismiss.getByRole('button', { name: 'Dismiss card' }).click();
  await expect(dismiss).toBeHidden();
  await expect(page.getByText(`Card ${visitor} dismissed`)).toBeVisible();
  await expect(table.getByRole('row', { name: new RegExp(visitor) })).toHaveCount(0);
  expect(await unknownCards(request)).not.toContain(visitor);
  expect((await postScanAsReader(request, door.token, { card_uid: visitor, sequence: ++sequence })).outcome).toBe('unknown_card');
  await expect(table.getByRole('row', { name: new RegExp(visitor) })).toBeVisible();
  await expect(table.getByRole('row', { name: new RegExp(visitor) }).getByRole('cell').nth(3)).toHaveText('1');
});
