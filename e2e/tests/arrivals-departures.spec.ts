import { expect, test, type APIRequestContext } from '@playwright/test';
import { createAccountThroughRest, expectAccessible, newAccount, newCardUid, postScanAsReader, registerReaderThroughRest, restToken, signIn } from '../support/console';

/** gives a card to an account through REST v2, as an administrator assigning an unknown card */
async function giveCard(request: APIRequestContext, accountId: string): Promise<string> {
  const uid = newCardUid();
  const answer = await request.post('/api/v2/scanner/unknown-cards/assign', { data: { card_uid: uid, account_id: accountId }, headers: { authorization: `Bearer ${await restToken(request)}` } });
  expect(answer.status(), await answer.text()).toBe(201);
  return uid;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** what a datetime-local field holds for an instant, in the browser's (this machine's) zone */
const localInput = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;

test('door scans show on the presence board and in the arrivals / departures log without a reload, and a slot is corrected with a reason', async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const alice = newAccount('presence');
  const bob = newAccount('arrival');
  const aliceId = await createAccountThroughRest(request, alice);
  const bobId = await createAccountThroughRest(request, bob);
  const aliceCard = await giveCard(request, aliceId);
  const bobCard = await giveCard(request, bobId);
  const door = await registerReaderThroughRest(request, { name: `Lobby ${tag}`, door: `Main entrance ${tag}`, role: 'door' });
  let sequence = 0;
  const aliceName = `${alice.first_name} ${alice.last_name}`;
  const bobName = `${bob.first_name} ${bob.last_name}`;

  await signIn(page);
  // the presence board: alice comes in while it is open
  await page.getByRole('navigation').getByRole('link', { name: 'Presence' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Presence' })).toBeVisible();
  await expect(page.getByRole('link', { name: aliceName })).toHaveCount(0);
  expect((await postScanAsReader(request, door.token, { card_uid: aliceCard, sequence: ++sequence })).outcome).toBe('arrival');
  await expect(page.getByRole('link', { name: aliceName }).first()).toBeVisible();
  await expect(page.getByText(new RegExp(`In since .* · Main entrance ${tag}`)).first()).toBeVisible();
  await expectAccessible(page, 'presence board');

  // the log: bob's arrival appears as it lands, newest first
  await page.getByRole('navigation').getByRole('link', { name: 'Arrivals / Departures' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Arrivals / Departures' })).toBeVisible();
  const log = page.getByRole('table', { name: 'Arrivals and departures' });
  await expect(log.getByRole('row', { name: new RegExp(aliceName) })).toBeVisible();
  await expect(log.getByRole('row', { name: new RegExp(bobName) })).toHaveCount(0);
  expect((await postScanAsReader(request, door.token, { card_uid: bobCard, sequence: ++sequence })).outcome).toBe('arrival');
  await expect(log.getByRole('row', { name: new RegExp(bobName) })).toBeVisible();
  await expect(log.getByRole('row').nth(1)).toContainText(bobName);
  await expectAccessible(page, 'arrivals and departures log');

  // correct alice's slot: the reason is required, the row then says it was corrected
  await log.getByRole('button', { name: `Edit the slot of ${aliceName}` }).click();
  const dialog = page.getByRole('dialog', { name: `Correct the slot of ${aliceName}` });
  const arrived = new Date(Date.now() - 15 * 60_000);
  await dialog.getByLabel('Arrived at').fill(localInput(arrived));
  await dialog.getByRole('button', { name: 'Save correction' }).click();
  await expect(dialog.getByText('This field is required')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('Came in through the side door');
  await dialog.getByRole('button', { name: 'Save correction' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Slot corrected')).toBeVisible();
  const aliceRow = log.getByRole('row', { name: new RegExp(aliceName) });
  await expect(aliceRow).toContainText('Corrected');
  await expect(aliceRow).toContainText(`${pad(arrived.getHours())}:${pad(arrived.getMinutes())}:${pad(arrived.getSeconds())}`);

  // the account filter lives in the URL: a reload shows only alice
  await page.goto(`/arrivals-departures?account_id=${aliceId}&account=${encodeURIComponent(aliceName)}`);
  await expect(log.getByRole('row', { name: new RegExp(aliceName) })).toBeVisible();
  await expect(log.getByRole('row', { name: new RegExp(bobName) })).toHaveCount(0);
});
