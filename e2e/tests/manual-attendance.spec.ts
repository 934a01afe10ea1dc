import { expect, test, type Locator } from '@playwright/test';
import { addMemberThroughRest, createAccountThroughRest, createOrganizationThroughRest, expectAccessible, newAccount, restToken, signIn } from '../support/console';

/** today as the server's UTC day (the account has no zone of its own, nor its organization: its days are UTC's) */
const todayUtc = () => new Date().toISOString().slice(0, 10);

/** a date (YYYY-MM-DD) and time (HH:mm) typed section by section into the console's picker (DD.MM.YYYY HH:mm), as an admin would */
async function typeDateTime(dialog: Locator, label: RegExp, date: string, time: string): Promise<void> {
  const [year, month, day] = date.split('-');
  await dialog.getByRole('group', { name: label }).getByRole('spinbutton', { name: 'Day' }).click();
  await dialog.page().keyboard.type(`${day}${month}${year}${time.replace(':', '')}`);
}

test('an administrator adds a missing attendance record by hand, with its reason, and sees it as such; absences show in the Attendance tab and in Statistics', async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const person = newAccount('manual');
  const accountId = await createAccountThroughRest(request, person);
  const organizationId = await createOrganizationThroughRest(request, `Manual records ${tag}`);
  await addMemberThroughRest(request, organizationId, accountId);
  const name = `${person.first_name} ${person.last_name}`;

  // an absence today in the person's calendar: a status of its own, so the statistics column is this test's
  const headers = { authorization: `Bearer ${await restToken(request)}` };
  const status = await request.post('/api/v2/states/attendance/', { data: { title: `Vacation ${tag}`, active: 1 }, headers });
  expect(status.status(), await status.text()).toBe(201);
  const today = todayUtc();
  const group = await request.post(`/api/v2/account/${accountId}/tracking-status/`, {
    data: { event_group_title: 'Lake holiday', status_id: (await status.json()).data.id, start_date: today, end_date: today, start_time: '00:00:00', end_time: '23:59:59', description: '', single: false, account_id: accountId },
    headers,
  });
  expect(group.status(), await group.text()).toBe(201);

  await signIn(page);
  await page.goto(`/accounts/profile/${accountId}?tab=attendance`);
  const table = page.getByRole('table', { name: 'Attendance' });
  // the day's absence, named by its status, and no slot yet
  await expect(table.getByRole('row').filter({ hasText: `Vacation ${tag}` })).toHaveCount(1);

  // add the record: the times are the account's (UTC here), the reason is required
  await page.getByRole('button', { name: 'Add record' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add an attendance record' });
  await expect(dialog).toContainText('Times are in UTC');
  await typeDateTime(dialog, /^Arrived at \(UTC\)/, today, '00:00');
  await typeDateTime(dialog, /^Departed at \(UTC\)/, today, '00:01');
  await dialog.getByRole('button', { name: 'Add record' }).click();
  await expect(dialog.getByText('This field is required')).toBeVisible();
  // a departure before the arrival is refused under its field, by the server's rule
  await typeDateTime(dialog, /^Departed at \(UTC\)/, today, '00:00');
  await dialog.getByLabel('Reason').fill('The side door reader was down');
  await dialog.getByRole('button', { name: 'Add record' }).click();
  await expect(dialog.getByText('The departure must be after the arrival')).toBeVisible();
  await typeDateTime(dialog, /^Departed at \(UTC\)/, today, '00:01');
  await dialog.getByRole('button', { name: 'Add record' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Attendance record added')).toBeVisible();

  // the Attendance tab: the slot, marked as added by hand with its reason, beside the day's absence
  const row = table.getByRole('row').filter({ hasText: 'Added by hand' });
  await expect(row).toContainText('00:00:00');
  await expect(row).toContainText('00:01:00');
  await expect(row).toContainText('The side door reader was down');
  await expect(row).toContainText(`Vacation ${tag}`);
  await expectAccessible(page, 'attendance tab with a record added by hand');

  // Arrivals / Departures (today by default), this account's (other tests' scans of today fill the first
  // page, and a record from 00:00 sorts last): the same slot, marked, with the reason
  await page.goto(`/arrivals-departures?account_id=${accountId}&account=${encodeURIComponent(name)}`);
  const logRow = page.getByRole('table', { name: 'Arrivals and departures' }).getByRole('row').filter({ hasText: name });
  await expect(logRow).toHaveCount(1);
  await expect(logRow).toContainText('Added by hand');
  await expect(logRow).toContainText('The side door reader was down');

  // Statistics, this month, the organization: a column for the status, one day in it
  await page.goto(`/statistics?organization_id=${organizationId}&organization=${encodeURIComponent(`Manual records ${tag}`)}`);
  const statistics = page.getByRole('table', { name: 'Attendance statistics' });
  await expect(statistics.getByRole('columnheader', { name: `Vacation ${tag} (days)` })).toBeVisible();
  const statisticsRow = statistics.getByRole('row').filter({ hasText: name });
  await expect(statisticsRow).toHaveCount(1);
  await expect(statisticsRow.getByRole('cell').last()).toHaveText('1');
});
