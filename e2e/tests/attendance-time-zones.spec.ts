import { expect, test, type APIRequestContext } from '@playwright/test';
import { createAccountThroughRest, newAccount, newCardUid, postScanAsReader, registerReaderThroughRest, restToken, signIn } from '../support/console';

// the browser sits in Berlin; the account works in Tokyo: every screen shows Tokyo's clock, and says so
test.use({ timezoneId: 'Europe/Berlin' });

const tokyo = (iso: string) => new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Tokyo', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(new Date(iso));

async function rest(request: APIRequestContext) {
  const headers = { authorization: `Bearer ${await restToken(request)}` };
  return {
    post: async (path: string, data: unknown) => {
      const answer = await request.post(path, { data, headers });
      expect(answer.status(), await answer.text()).toBeLessThan(300);
      return answer.json();
    },
    put: async (path: string, data: unknown) => {
      const answer = await request.put(path, { data, headers });
      expect(answer.status(), await answer.text()).toBe(200);
    },
    get: async (path: string) => (await request.get(path, { headers })).json(),
  };
}

test('one clock on every attendance screen: the account’s zone, else its organization’s, labelled', async ({ page, request }) => {
  const api = await rest(request);
  const tag = Date.now().toString(36);
  const organization = (await api.post('/api/v2/organization', { title: `Tokyo office ${tag}`, description: '' })).data.id as string;
  await api.put(`/api/v2/organization/${organization}/time-zone`, { time_zone: 'Asia/Tokyo' });
  const person = newAccount('tokyo');
  const id = await createAccountThroughRest(request, { ...person, organization });
  const name = `${person.first_name} ${person.last_name}`;
  const uid = newCardUid();
  await api.post('/api/v2/scanner/unknown-cards/assign', { card_uid: uid, account_id: id });
  const door = await registerReaderThroughRest(request, { name: `Tokyo ${tag}`, door: `Tokyo door ${tag}`, role: 'door' });
  expect((await postScanAsReader(request, door.token, { card_uid: uid, sequence: 1 })).outcome).toBe('arrival');
  const slot = (await api.get(`/api/v2/logs/arrivals-departures?account_id=${id}`)).data.data[0] as { arrived_at: string };
  const time = tokyo(slot.arrived_at);

  await signIn(page);
  // the whole history: 'today' in Berlin is not always the scan's day in Tokyo (from 15:00 UTC on it is the next)
  await page.goto(`/arrivals-departures?account_id=${id}&account=${encodeURIComponent(name)}&period=all`);
  const row = page.getByRole('table', { name: 'Arrivals and departures' }).getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText(`${time}GMT+9`);

  await page.goto('/presence');
  await expect(page.getByText(`In since ${time} GMT+9 · Tokyo door ${tag}`)).toBeVisible();

  await page.goto(`/accounts/profile/${id}?tab=attendance`);
  await expect(page.getByText('Times in Asia/Tokyo')).toBeVisible();
  await expect(page.getByText(time).first()).toBeVisible();

  await page.goto(`/statistics?organization_id=${organization}&organization=${encodeURIComponent(`Tokyo office ${tag}`)}`);
  await expect(page.getByRole('columnheader', { name: 'Average Time Arrived (Asia/Tokyo)' })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText(time);
});
