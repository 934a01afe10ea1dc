import { expect, test, type APIRequestContext, type Page, type WebSocketRoute } from '@playwright/test';
import { createAccountThroughRest, newAccount, newCardUid, postScanAsReader, registerReaderThroughRest, restToken, signIn } from '../support/console';

/** gives a card to an account through REST v2, as an administrator assigning an unknown card */
async function giveCard(request: APIRequestContext, accountId: string): Promise<string> {
  const uid = newCardUid();
  const answer = await request.post('/api/v2/scanner/unknown-cards/assign', { data: { card_uid: uid, account_id: accountId }, headers: { authorization: `Bearer ${await restToken(request)}` } });
  expect(answer.status(), await answer.text()).toBe(201);
  return uid;
}

/**
 * Puts the console's socket (/ws) through a switch: `cut()` takes the browser offline and closes the
 * socket as a dropped link would, and refuses reconnections until `restore()`.
 */
async function connectionSwitch(page: Page) {
  let cut = false;
  const open: WebSocketRoute[] = [];
  await page.routeWebSocket(/\/ws$/, (socket) => {
    if (cut) {
      void socket.close({ code: 4000, reason: 'offline' });
      return;
    }
    socket.connectToServer();
    open.push(socket);
  });
  return {
    async cut() {
      cut = true;
      await page.context().setOffline(true);
      for (const socket of open.splice(0)) await socket.close({ code: 4000, reason: 'offline' });
    },
    async restore() {
      cut = false;
      await page.context().setOffline(false);
    },
  };
}

test('a live screen says when it lost its connection, marks what it shows as stale, and says when it has caught up', async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const alice = newAccount('online');
  const bob = newAccount('offline');
  const carol = newAccount('later');
  const aliceCard = await giveCard(request, await createAccountThroughRest(request, alice));
  const bobCard = await giveCard(request, await createAccountThroughRest(request, bob));
  const carolCard = await giveCard(request, await createAccountThroughRest(request, carol));
  const door = await registerReaderThroughRest(request, { name: `Live ${tag}`, door: `Live door ${tag}`, role: 'door' });
  let sequence = 0;
  const aliceName = `${alice.first_name} ${alice.last_name}`;
  const bobName = `${bob.first_name} ${bob.last_name}`;
  const carolName = `${carol.first_name} ${carol.last_name}`;
  const link = await connectionSwitch(page);

  await signIn(page);
  await page.getByRole('navigation').getByRole('link', { name: 'Presence' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Presence' })).toBeVisible();
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  await postScanAsReader(request, door.token, { card_uid: aliceCard, sequence: ++sequence });
  await expect(page.getByRole('link', { name: aliceName })).toBeVisible();

  // the link drops: the board says so and since when, and marks its people as possibly out of date
  await link.cut();
  const status = page.getByRole('status').filter({ hasText: /Disconnected since \d\d:\d\d:\d\d UTC([+-]\d{1,2}(:\d\d)?)?: what you see may be out of date/ });
  await expect(status).toBeVisible();
  await expect(page.getByText('Offline', { exact: true })).toBeVisible();
  await expect(page.locator('[data-stale]')).toBeVisible();
  // bob comes in meanwhile: the board cannot know
  await postScanAsReader(request, door.token, { card_uid: bobCard, sequence: ++sequence });
  await expect(page.getByRole('link', { name: bobName })).toHaveCount(0);

  // back: it catches up (bob is there) and says so
  await link.restore();
  await expect(page.getByText(/Reconnected at \d\d:\d\d:\d\d UTC([+-]\d{1,2}(:\d\d)?)?: caught up with everything that happened meanwhile/)).toBeVisible({ timeout: 40_000 });
  await expect(page.getByRole('link', { name: bobName })).toBeVisible();
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  await expect(page.locator('[data-stale]')).toHaveCount(0);

  // the arrivals / departures log does the same
  await page.getByRole('navigation').getByRole('link', { name: 'Arrivals / Departures' }).click();
  const log = page.getByRole('table', { name: 'Arrivals and departures' });
  await expect(log.getByRole('row', { name: new RegExp(bobName) })).toBeVisible();
  await link.cut();
  await expect(page.getByRole('status').filter({ hasText: /Disconnected since/ })).toBeVisible();
  await expect(page.getByText('Offline', { exact: true })).toBeVisible();
  await postScanAsReader(request, door.token, { card_uid: carolCard, sequence: ++sequence });
  await expect(log.getByRole('row', { name: new RegExp(carolName) })).toHaveCount(0);
  await link.restore();
  await expect(page.getByText(/Reconnected at .*caught up/)).toBeVisible({ timeout: 40_000 });
  await expect(log.getByRole('row', { name: new RegExp(carolName) })).toBeVisible();
});
