import { expect, test } from '@playwright/test';
import { createAccountThroughRest, newAccount, newCardUid, registerReaderThroughRest, restToken, signIn } from '../support/console';

test.use({ viewport: { width: 390, height: 844 } });

test('on a phone, Arrivals / Departures keeps its filters behind a button and shows who, in and out first', async ({ page }) => {
  await signIn(page);
  await page.goto('/arrivals-departures');
  await expect(page.getByRole('heading', { level: 1, name: 'Arrivals / Departures' })).toBeVisible();
  const from = page.getByRole('group', { name: 'From' }).or(page.getByLabel('From'));
  await expect(from.first()).toBeHidden();
  const headers = page.getByRole('table', { name: 'Arrivals and departures' }).getByRole('columnheader');
  await expect(headers.nth(0)).toHaveText('Account');
  await expect(headers.nth(1)).toContainText('Arrived');
  await expect(headers.nth(2)).toContainText('Departed');
  // the key columns fit the first screen: no sideways scroll to reach 'Departed'
  const departed = await headers.nth(2).boundingBox();
  expect((departed?.x ?? 999) + (departed?.width ?? 0) / 2).toBeLessThan(390);

  const button = page.getByRole('button', { name: 'Filters' });
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await button.click();
  await expect(from.first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Hide filters' })).toHaveAttribute('aria-expanded', 'true');
});

test("on a phone, a departure's time shows whole with its zone label, not cut at the screen's edge", async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const person = newAccount('phone');
  const id = await createAccountThroughRest(request, person);
  const headers = { authorization: `Bearer ${await restToken(request)}` };
  const card = newCardUid();
  expect((await request.post('/api/v2/scanner/unknown-cards/assign', { data: { card_uid: card, account_id: id }, headers })).status()).toBe(201);
  const door = await registerReaderThroughRest(request, { name: `Phone ${tag}`, door: `Phone door ${tag}`, role: 'door' });
  const arrived = Math.floor((Date.now() - 40 * 60_000) / 1000) * 1000;
  for (const [sequence, at] of [[1, arrived], [2, arrived + 30 * 60_000]]) {
    const answer = await request.post('/api/v2/reader/scans', {
      data: { sent_at: new Date().toISOString(), scans: [{ card_uid: card, sequence, device_time: new Date(at).toISOString() }] },
      headers: { authorization: `Bearer ${door.token}` },
    });
    expect(answer.status(), await answer.text()).toBe(200);
  }
  const name = `${person.first_name} ${person.last_name}`;
  await signIn(page);
  await page.goto(`/arrivals-departures?account_id=${id}&account=${encodeURIComponent(name)}`);
  const row = page.getByRole('table', { name: 'Arrivals and departures' }).getByRole('row', { name: new RegExp(name) });
  await expect(row).toBeVisible({ timeout: 30_000 });
  // the third cell is Departed: its time and its zone label both inside the screen, before its card's edge
  const label = row.getByRole('cell').nth(2).getByText(/^UTC/);
  await expect(label).toBeVisible();
  const box = (await label.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390 - 16);
  if (process.env.E2E_SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.E2E_SCREENSHOT_DIR}/ad-phone-departed.png` });
});
