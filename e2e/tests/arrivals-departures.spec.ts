import { expect, test, type APIRequestContext, type Locator } from '@playwright/test';
import { createAccountThroughRest, expectAccessible, newAccount, newCardUid, postScanAsReader, registerReaderThroughRest, restToken, signIn } from '../support/console';

/** gives a card to an account through REST v2, as an administrator assigning an unknown card */
async function giveCard(request: APIRequestContext, accountId: string): Promise<string> {
  const uid = newCardUid();
  const answer = await request.post('/api/v2/scanner/unknown-cards/assign', { data: { card_uid: uid, account_id: accountId }, headers: { authorization: `Bearer ${await restToken(request)}` } });
  expect(answer.status(), await answer.text()).toBe(201);
  return uid;
}

/** an instant's wall clock in a zone: DD.MM.YYYY and HH:mm:ss, as the console shows it */
function wallClock(date: Date, timeZone: string): { date: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  return { date: `${parts.day}.${parts.month}.${parts.year}`, time: `${parts.hour}:${parts.minute}:${parts.second}` };
}

/** an account's slots through REST v2, newest first: each names the zone the server draws its day in */
async function slotsOf(request: APIRequestContext, accountId: string): Promise<Array<{ arrived_at: string; time_zone: string }>> {
  const answer = await request.get(`/api/v2/logs/arrivals-departures?account_id=${accountId}`, { headers: { authorization: `Bearer ${await restToken(request)}` } });
  expect(answer.status(), await answer.text()).toBe(200);
  return (await answer.json()).data.data;
}

/** a date and time typed section by section (DD.MM.YYYY HH:mm:ss, 24-hour) into the console's picker, as an admin would */
async function typeDateTime(dialog: Locator, label: RegExp, wall: { date: string; time: string }): Promise<void> {
  await dialog.getByRole('group', { name: label }).getByRole('spinbutton', { name: 'Day' }).click();
  await dialog.page().keyboard.type(`${wall.date}${wall.time}`.replace(/\D/g, ''));
}

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
  // the times are the account's zone's (the server's day), whatever the browser's
  const aliceZone = (await slotsOf(request, aliceId))[0].time_zone;
  await expect(dialog.getByText(`Times are in ${aliceZone}`)).toBeVisible();
  await expect(dialog.locator('input[type=datetime-local]')).toHaveCount(0);
  await typeDateTime(dialog, /^Arrived at/, wallClock(arrived, aliceZone));
  await expect(dialog.locator('input[name=arrived_at]')).toHaveValue(`${wallClock(arrived, aliceZone).date} ${wallClock(arrived, aliceZone).time}`);
  await dialog.getByRole('button', { name: 'Save correction' }).click();
  await expect(dialog.getByText('This field is required')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('Came in through the side door');
  await dialog.getByRole('button', { name: 'Save correction' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Slot corrected')).toBeVisible();
  const aliceRow = log.getByRole('row', { name: new RegExp(aliceName) });
  await expect(aliceRow).toContainText('Corrected');
  await expect(aliceRow).toContainText(wallClock(arrived, aliceZone).time);

  // the account filter lives in the URL: a reload shows only alice
  await page.goto(`/arrivals-departures?account_id=${aliceId}&account=${encodeURIComponent(aliceName)}`);
  await expect(log.getByRole('row', { name: new RegExp(aliceName) })).toBeVisible();
  await expect(log.getByRole('row', { name: new RegExp(bobName) })).toHaveCount(0);
});

test.describe("a correction typed in the account's zone, from a browser in another", () => {
  // the browser in New York, the account in Tokyo: 14 hours apart
  test.use({ timezoneId: 'America/New_York' });

  test("lands at the instant the account's clock names, and the dialog says which zone it is", async ({ page, request }) => {
    const tag = Date.now().toString(36);
    const ken = newAccount('tokyo');
    const kenId = await createAccountThroughRest(request, ken);
    const headers = { authorization: `Bearer ${await restToken(request)}` };
    const zoned = await request.put(`/api/v2/account/${kenId}`, { data: { first_name: ken.first_name, last_name: ken.last_name, email: ken.email, time_zone: 'Asia/Tokyo' }, headers });
    expect(zoned.status(), await zoned.text()).toBe(200);
    const card = await giveCard(request, kenId);
    const door = await registerReaderThroughRest(request, { name: `Tokyo ${tag}`, door: `Tokyo door ${tag}`, role: 'door' });
    expect((await postScanAsReader(request, door.token, { card_uid: card, sequence: 1 })).outcome).toBe('arrival');
    const [slot] = await slotsOf(request, kenId);
    expect(slot.time_zone).toBe('Asia/Tokyo');
    const kenName = `${ken.first_name} ${ken.last_name}`;

    await signIn(page);
    await page.goto(`/arrivals-departures?account_id=${kenId}&account=${encodeURIComponent(kenName)}`);
    const log = page.getByRole('table', { name: 'Arrivals and departures' });
    // 'today' is New York's date; Tokyo may be a day ahead already
    await page.getByRole('button', { name: 'Whole history' }).click();
    await log.getByRole('button', { name: `Edit the slot of ${kenName}` }).click();
    const dialog = page.getByRole('dialog', { name: `Correct the slot of ${kenName}` });
    // labelled with Tokyo's zone, and showing the arrival on Tokyo's clock, not New York's
    await expect(dialog.getByText('Times are in UTC+9 (Asia/Tokyo)')).toBeVisible();
    await expect(dialog.getByRole('group', { name: /^Arrived at \(UTC\+9\)/ })).toBeVisible();
    const scanned = wallClock(new Date(slot.arrived_at), 'Asia/Tokyo');
    await expect(dialog.locator('input[name=arrived_at]')).toHaveValue(`${scanned.date} ${scanned.time}`);

    // ten minutes earlier, typed on Tokyo's clock
    const corrected = new Date(Math.floor((Date.parse(slot.arrived_at) - 10 * 60_000) / 1000) * 1000);
    await typeDateTime(dialog, /^Arrived at/, wallClock(corrected, 'Asia/Tokyo'));
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Badge left at home');
    await expectAccessible(page, 'correction dialog in the account zone');
    await dialog.getByRole('button', { name: 'Save correction' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Slot corrected')).toBeVisible();

    // the server got the instant Tokyo's clock named (a browser-zone reading would be 14 hours off)
    await expect.poll(async () => (await slotsOf(request, kenId))[0].arrived_at).toBe(corrected.toISOString());
    await expect(log.getByRole('row', { name: new RegExp(kenName) })).toContainText(wallClock(corrected, 'Asia/Tokyo').time);
  });
});
