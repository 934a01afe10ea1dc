import { expect, test, type APIRequestContext } from '@playwright/test';
import { createAccountThroughRest, expectAccessible, newAccount, newCardUid, postScanAsReader, registerReaderThroughRest, restToken, signIn } from '../support/console';

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
  // the whole history is the slowest list: give it the time a busy machine needs
  await expect(row).toContainText(`${time} UTC+9`, { timeout: 30_000 });

  await page.goto('/presence');
  await expect(page.getByText(`In since ${time} UTC+9 · Tokyo door ${tag}`)).toBeVisible();

  await page.goto(`/accounts/profile/${id}?tab=attendance`);
  await expect(page.getByText('Times in UTC+9 (Asia/Tokyo)')).toBeVisible();
  await expect(page.getByText(time).first()).toBeVisible();
  // the average chips say their clock too, not only the footnote
  await expect(page.getByLabel('Averages').getByText(`Average Time Arrived (UTC+9): ${time}`, { exact: true })).toBeVisible();

  const statisticsUrl = `/statistics?organization_id=${organization}&organization=${encodeURIComponent(`Tokyo office ${tag}`)}`;
  await page.goto(statisticsUrl);
  await expect(page.getByRole('columnheader', { name: 'Average Time Arrived (UTC+9)' })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText(time);
  // one zone for the whole month: the summary's average names it
  const summary = page.getByLabel('Month summary');
  await expect(summary.getByText(`Average Time Arrived (UTC+9): ${time}`, { exact: true })).toBeVisible();

  // a colleague of the office working in New York: the summary averages two clocks and says so, no one zone
  const colleague = newAccount('newyork');
  const colleagueId = await createAccountThroughRest(request, { ...colleague, organization });
  await api.put(`/api/v2/account/${colleagueId}`, { first_name: colleague.first_name, last_name: colleague.last_name, email: colleague.email, time_zone: 'America/New_York' });
  const colleagueCard = newCardUid();
  await api.post('/api/v2/scanner/unknown-cards/assign', { card_uid: colleagueCard, account_id: colleagueId });
  expect((await postScanAsReader(request, door.token, { card_uid: colleagueCard, sequence: 2 })).outcome).toBe('arrival');
  await page.goto(statisticsUrl);
  await expect(page.getByRole('row', { name: new RegExp(`${colleague.first_name} ${colleague.last_name}`) })).toBeVisible({ timeout: 30_000 });
  await expect(summary.getByText(/^Average Time Arrived \(each person's local time\): \d{2}:\d{2}:\d{2}$/)).toBeVisible();
  await expect(summary).not.toContainText('UTC+9');
});

/** Berlin's wall clock as the console writes an instant: 'DD.MM.YYYY @ HH:mm UTC+1' (UTC+2 in summer) */
const berlin = (at: string | Date) => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'shortOffset' })
      .formatToParts(new Date(at))
      .map((part) => [part.type, part.value]),
  );
  const label = String(parts.timeZoneName).replace('GMT', 'UTC');
  return { text: `${parts.day}.${parts.month}.${parts.year} @ ${parts.hour}:${parts.minute}`, label };
};

test('times tied to no account are the browser’s, labelled the same way in English and German', async ({ page, request }) => {
  const api = await rest(request);
  const tag = Date.now().toString(36);
  const reader = await registerReaderThroughRest(request, { name: `Berlin ${tag}`, door: `Berlin door ${tag}`, role: 'door' });
  const lost = newCardUid();

  await signIn(page);
  await page.getByRole('navigation').getByRole('link', { name: 'Arrivals / Departures' }).click();
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  expect((await postScanAsReader(request, reader.token, { card_uid: lost, sequence: 1 })).outcome).toBe('unknown_card');
  const seen = ((await api.get('/api/v2/scanner/unknown-cards')).data as Array<{ card_uid: string; scanned_at: string }>).find((card) => card.card_uid === lost);
  expect(seen).toBeDefined();
  const scan = berlin(seen!.scanned_at);
  // the live notice: the time of day on the browser's clock, labelled
  await expect(page.getByRole('status').getByText(new RegExp(`Unknown card ${lost} scanned at Berlin door ${tag} at \\d\\d:\\d\\d:\\d\\d ${scan.label.replace('+', '\\+')}\\.`))).toBeVisible();

  // the unknown cards list: the spec's date and time text, the label after it
  await page.goto('/unknown-cards');
  await expect(page.getByRole('table', { name: 'Unknown cards' }).getByRole('row', { name: new RegExp(lost) })).toContainText(`${scan.text} ${scan.label}`);

  // the readers' last contact: written by the readers' health recorder on its own beat (about once a
  // second), so the list is asked again until it has it
  await page.goto('/readers');
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('table', { name: 'Door readers' }).getByRole('row', { name: new RegExp(`Berlin ${tag}`) })).toContainText(new RegExp(`\\d\\d\\.\\d\\d\\.\\d{4} @ \\d\\d:\\d\\d ${scan.label.replace('+', '\\+')}`), { timeout: 3000 });
  }).toPass({ timeout: 30_000 });

  // the event log: one clock for the column, named once in its header; in German the same label form
  await page.goto(`/audit/events?stream=${encodeURIComponent(`reader-${reader.id}`)}`);
  const log = page.getByRole('table', { name: 'Events, newest first' });
  await expect(log.getByRole('columnheader', { name: `Recorded (${scan.label})` })).toBeVisible();
  await page.getByRole('button', { name: 'DE', exact: true }).click();
  await expect(page.getByRole('columnheader', { name: `Erfasst (${scan.label})` })).toBeVisible();
  await expectAccessible(page, 'event log, times labelled (de)');
});
