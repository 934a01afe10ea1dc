import { expect, test } from '@playwright/test';
import { createAccountThroughRest, expectAccessible, newAccount, newCardUid, postScanAsReader, registerReaderThroughRest, restToken, signIn } from '../support/console';

test("an auditor follows a person: the account's history holds their arrivals, corrections and cards, and the event log names actors and streams", async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const person = newAccount('followed');
  const id = await createAccountThroughRest(request, person);
  const headers = { authorization: `Bearer ${await restToken(request)}` };
  const uid = newCardUid();
  expect((await request.post('/api/v2/scanner/unknown-cards/assign', { data: { card_uid: uid, account_id: id }, headers })).status()).toBe(201);
  const door = await registerReaderThroughRest(request, { name: `Gate reader ${tag}`, door: `West gate ${tag}`, role: 'door' });
  expect((await postScanAsReader(request, door.token, { card_uid: uid, sequence: 1 })).outcome).toBe('arrival');
  const slot = (await (await request.get(`/api/v2/logs/arrivals-departures?account_id=${id}`, { headers })).json()).data.data[0] as { id: string; arrived_at: string };
  const earlier = new Date(Date.parse(slot.arrived_at) - 10 * 60_000).toISOString();
  const corrected = await request.patch(`/api/v2/logs/arrivals-departures/edit/${slot.id}`, { data: { arrived_at: earlier, departed_at: null, reason: 'Badge forgotten at home' }, headers });
  expect(corrected.status(), await corrected.text()).toBe(200);

  await signIn(page);
  await page.goto(`/accounts/profile/${id}?tab=history`);
  const entries = page.getByTestId('history-entry');
  await expect(entries.filter({ hasText: /^.*Slot of .* corrected from .* \(UTC\) .*because: Badge forgotten at home by admin/ })).toHaveCount(1);
  const arrival = entries.filter({ hasText: new RegExp(`Arrived at West gate ${tag}, \\d\\d\\.\\d\\d\\.\\d{4} \\d\\d:\\d\\d:\\d\\d \\(UTC\\) by Gate reader ${tag}`) });
  await expect(arrival).toHaveCount(1);
  await expect(entries.filter({ hasText: `Card ${uid} registered (assigned by an administrator) by admin` })).toHaveCount(1);
  await expectAccessible(page, 'person history');

  // the same in German: the sentences, the times in the person's zone, labelled
  await page.getByRole('button', { name: 'DE', exact: true }).click();
  await expect(entries.filter({ hasText: `Karte ${uid} registriert (von einem Administrator zugewiesen), durch admin` })).toHaveCount(1);
  await expect(entries.filter({ hasText: new RegExp(`Gekommen an West gate ${tag}, \\d\\d\\.\\d\\d\\.\\d{4} \\d\\d:\\d\\d:\\d\\d \\(UTC\\), durch Gate reader ${tag}`) })).toHaveCount(1);
  await expect(entries.filter({ hasText: /Zeitraum vom .* korrigiert von .* \(UTC\) .*Grund: Badge forgotten at home, durch admin/ })).toHaveCount(1);
  await expectAccessible(page, 'person history (de)');
  await page.getByRole('button', { name: 'EN', exact: true }).click();

  // the arrival in the event log: the stream and the actor by name, the ids a click away
  await arrival.getByRole('button', { name: 'Show what changed' }).click();
  await arrival.getByRole('link', { name: 'Open in the event log' }).click();
  const log = page.getByRole('table', { name: 'Events, newest first' });
  const row = log.getByRole('row').nth(1);
  await expect(row).toContainText('ArrivalRecorded');
  await expect(row).toContainText(`attendance-${id}-`);
  await expect(row).toContainText(person.username);
  await expect(row.getByRole('button', { name: `Gate reader ${tag}` })).toBeVisible();
  await expect(page.getByText(/attendance-<id> its attendance days/)).toBeVisible();
});
