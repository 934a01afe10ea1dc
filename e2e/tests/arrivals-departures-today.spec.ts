import { expect, test, type APIRequestContext } from '@playwright/test';
import { createAccountThroughRest, newAccount, newCardUid, registerReaderThroughRest, restToken, signIn } from '../support/console';

async function giveCard(request: APIRequestContext, accountId: string): Promise<string> {
  const uid = newCardUid();
  const answer = await request.post('/api/v2/scanner/unknown-cards/assign', { data: { card_uid: uid, account_id: accountId }, headers: { authorization: `Bearer ${await restToken(request)}` } });
  expect(answer.status(), await answer.text()).toBe(201);
  return uid;
}

async function scanAt(request: APIRequestContext, token: string, uid: string, sequence: number, at: Date) {
  const answer = await request.post('/api/v2/reader/scans', { data: { sent_at: new Date().toISOString(), scans: [{ card_uid: uid, sequence, device_time: at.toISOString() }] }, headers: { authorization: `Bearer ${token}` } });
  expect(answer.status(), await answer.text()).toBe(200);
  return (await answer.json()).acks[0].outcome as string;
}

test('arrivals / departures opens on today, marks rows that come in live as new and counts an open slot’s time', async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const earlier = newAccount('earlier');
  const now = newAccount('now');
  const earlierCard = await giveCard(request, await createAccountThroughRest(request, earlier));
  const nowCard = await giveCard(request, await createAccountThroughRest(request, now));
  const door = await registerReaderThroughRest(request, { name: `Today ${tag}`, door: `Today door ${tag}`, role: 'door' });
  const earlierName = `${earlier.first_name} ${earlier.last_name}`;
  const nowName = `${now.first_name} ${now.last_name}`;
  // three days ago: history, not today
  expect(await scanAt(request, door.token, earlierCard, 1, new Date(Date.now() - 3 * 24 * 3600_000))).toBe('arrival');

  await signIn(page);
  await page.getByRole('navigation').getByRole('link', { name: 'Arrivals / Departures' }).click();
  const log = page.getByRole('table', { name: 'Arrivals and departures' });
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  await expect(log.getByRole('row', { name: new RegExp(earlierName) })).toHaveCount(0);

  // someone arrives while it is open: the row says it is new, and its time runs
  expect(await scanAt(request, door.token, nowCard, 2, new Date())).toBe('arrival');
  const row = log.getByRole('row', { name: new RegExp(nowName) });
  await expect(row.getByText('New', { exact: true })).toBeVisible();
  await expect(row).toContainText(/\d\d:\d\d:\d\d so far/);
  const running = row.getByText(/\d\d:\d\d:\d\d so far/);
  const first = await running.textContent();
  await expect.poll(() => running.textContent(), { timeout: 5_000 }).not.toBe(first);

  // the whole history is one click away, and stays in the URL
  await page.getByRole('button', { name: 'Whole history' }).click();
  await expect(page).toHaveURL(/period=all/);
  await expect(log.getByRole('row', { name: new RegExp(earlierName) })).toBeVisible();
  await page.reload();
  await expect(log.getByRole('row', { name: new RegExp(earlierName) })).toBeVisible();
});
