import { expect, test, type Locator, type Page } from '@playwright/test';
import { createAccountThroughRest, expectAccessible, newAccount, restToken, signIn } from '../support/console';

/** the tenth of the current month, as the browser's calendar shows it (DD.MM.YYYY), and today as FullCalendar's cells name it (YYYY-MM-DD) */
function tenthOfThisMonth() {
  const now = new Date();
  const month = String(now.getMonth() + 1).padStart(2, '0');
  return { label: `10.${month}.${now.getFullYear()}`, today: `${now.getFullYear()}-${month}-${String(now.getDate()).padStart(2, '0')}` };
}

/** this month's day (1-28) as YYYY-MM-DD and as shown, DD.MM.YYYY */
function dayOfThisMonth(day: number) {
  const now = new Date();
  const month = String(now.getMonth() + 1).padStart(2, '0');
  const dd = String(day).padStart(2, '0');
  return { iso: `${now.getFullYear()}-${month}-${dd}`, shown: `${dd}.${month}.${now.getFullYear()}` };
}

/** a time typed section by section on the 24-hour clock, as an admin would ('' clears it) */
async function typeTime(dialog: Locator, label: string, digits: string): Promise<void> {
  await dialog.getByRole('group', { name: new RegExp(`^${label}`) }).getByRole('spinbutton', { name: 'Hours' }).click();
  const page = dialog.page();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Backspace');
  if (digits) await page.keyboard.type(digits);
}

/** the middle of a month view's day cell, or of a week view's hour slot on a day (FullCalendar's cells carry their date and time) */
async function centreOf(page: Page, date: string, time?: string): Promise<{ x: number; y: number }> {
  const column = await page.locator(time ? `td.fc-timegrid-col[data-date="${date}"]` : `td.fc-daygrid-day[data-date="${date}"]`).boundingBox();
  expect(column, `the cell of ${date}`).not.toBeNull();
  if (!time) return { x: column!.x + column!.width / 2, y: column!.y + column!.height * 0.75 };
  const slot = page.locator(`td.fc-timegrid-slot-lane[data-time="${time}"]`);
  await slot.scrollIntoViewIfNeeded();
  const row = (await slot.boundingBox())!;
  const refreshed = (await page.locator(`td.fc-timegrid-col[data-date="${date}"]`).boundingBox())!;
  return { x: refreshed.x + refreshed.width / 2, y: row.y + row.height / 2 };
}

/** a press on one cell, a drag to another, a release: FullCalendar's selection */
async function drag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 5 });
  await page.mouse.move(to.x, to.y, { steps: 5 });
  await page.mouse.up();
}

/** the account's Calendar tab; FullCalendar's chunk comes with it, which a busy machine has taken over 10 s to load */
async function openCalendar(page: Page, accountId: string): Promise<void> {
  await page.goto(`/accounts/profile/${accountId}?tab=calendar`);
  await expect(page.locator('.fc')).toBeVisible({ timeout: 30_000 });
}

async function openAttendanceStatuses(page: Page): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name: 'Attendance statuses' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Attendance statuses' })).toBeVisible();
}

async function addStatus(page: Page, title: string, active = true): Promise<void> {
  await page.getByRole('button', { name: 'Add status' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create status' });
  await dialog.getByLabel('Title').fill(title);
  if (!active) await dialog.getByRole('switch', { name: 'Active' }).uncheck();
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByText('Status created')).toBeVisible();
  await expect(dialog).toBeHidden();
}

test('an administrator keeps attendance statuses and plans the days of an account in its calendar', async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const vacation = `Vacation ${tag}`;
  const retired = `Retired ${tag}`;
  await signIn(page);

  // the statuses screen: create (one inactive), a taken title under the field, update, delete
  await openAttendanceStatuses(page);
  await addStatus(page, vacation);
  await addStatus(page, retired, false);
  const table = page.getByRole('table', { name: 'Attendance statuses' });
  await expect(table.getByRole('row', { name: new RegExp(retired) })).toContainText('Inactive');
  await page.getByRole('button', { name: 'Add status' }).click();
  const create = page.getByRole('dialog', { name: 'Create status' });
  await create.getByLabel('Title').fill(vacation.toUpperCase());
  await create.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(create.getByText('An attendance status with this title already exists')).toBeVisible();
  await expectAccessible(page, 'status dialog with an error');
  await create.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: `Actions for ${retired}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const update = page.getByRole('dialog', { name: 'Update status' });
  await expect(update.getByRole('switch', { name: 'Active' })).not.toBeChecked();
  await update.getByLabel('Title').fill(`${retired} (old)`);
  await update.getByRole('button', { name: 'Update', exact: true }).click();
  await expect(page.getByText('Status info updated')).toBeVisible();
  await page.getByRole('button', { name: `Actions for ${retired} (old)` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Status deleted')).toBeVisible();
  await expect(table.getByRole('row', { name: new RegExp(retired) })).toHaveCount(0);
  await expectAccessible(page, 'statuses list');

  // the calendar tab of a fresh account: click a day, the times are required, then create
  const account = newAccount('cal');
  const accountId = await createAccountThroughRest(request, account);
  await openCalendar(page, accountId);
  const { label, today } = tenthOfThisMonth();
  await expect(page.getByRole('button', { name: 'Previous month' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Next month' })).toBeVisible();
  await page.getByRole('button', { name: `New event on ${label}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Create event group' });
  await expect(dialog.locator('input[name=startTime]')).toHaveValue('00:00:00');
  await expect(dialog.locator('input[name=endTime]')).toHaveValue('23:59:59');
  await dialog.getByLabel('Title').fill('Summer holiday');
  await dialog.getByRole('combobox', { name: 'Status' }).click();
  // an inactive status is not offered for a new event
  await expect(page.getByRole('option', { name: retired })).toHaveCount(0);
  await page.getByRole('option', { name: vacation }).click();
  await typeTime(dialog, 'Start time', '');
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(dialog.getByText('This field is required')).toBeVisible();
  await expectAccessible(page, 'event dialog with an error');
  await typeTime(dialog, 'Start time', '080000');
  await expect(dialog.locator('input[name=startTime]')).toHaveValue('08:00:00');
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByText('Event created successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
  const event = page.getByRole('button', { name: `Summer holiday – ${vacation}` });
  await expect(event).toHaveCount(1);
  await expectAccessible(page, 'month view');

  // click the event: edit only that day
  await event.click();
  const edit = page.getByRole('dialog', { name: 'Edit event group' });
  await expect(edit.getByLabel('Title')).toHaveValue('Summer holiday');
  await edit.getByRole('switch', { name: 'Edit only selected day' }).check();
  await edit.getByLabel('Title').fill('Dentist');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Event created successfully')).toBeVisible();
  await expect(page.getByRole('button', { name: `Dentist – ${vacation}` })).toHaveCount(1);
  // a group of one day is its day: a change of the whole group renames it, nothing is kept apart
  await page.getByRole('button', { name: `Dentist – ${vacation}` }).click();
  await expect(edit.getByRole('switch', { name: 'Edit only selected day' })).not.toBeChecked();
  await expect(edit.getByText(/changed alone/)).toHaveCount(0);
  await edit.getByLabel('Title').fill('Dentist visit');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByRole('button', { name: `Dentist visit – ${vacation}` })).toHaveCount(1);

  // the week view: a clicked hour slot proposes that hour to the next
  await page.getByRole('button', { name: 'Week', exact: true }).click();
  await expect(page.getByText('All day')).toBeVisible();
  const slot = await centreOf(page, today, '14:00:00');
  await page.mouse.click(slot.x, slot.y);
  await expect(dialog.locator('input[name=startTime]')).toHaveValue('14:00:00');
  await expect(dialog.locator('input[name=endTime]')).toHaveValue('15:00:00');
  await expectAccessible(page, 'week view with the event dialog');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // back in the month: remove the whole group
  await page.getByRole('button', { name: 'Month', exact: true }).click();
  await page.getByRole('button', { name: `Dentist visit – ${vacation}` }).click();
  await edit.getByRole('button', { name: 'Remove the whole group' }).click();
  await page.getByRole('dialog', { name: 'Remove Dentist visit?' }).getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Event removed successfully')).toBeVisible();
  await expect(page.getByRole('button', { name: `Dentist visit – ${vacation}` })).toHaveCount(0);
});

test('renaming a whole event group keeps the day changed alone, says so, and resets it only when asked', async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const token = await restToken(request);
  const headers = { authorization: `Bearer ${token}` };
  const statusOf = async (title: string) => {
    const created = await request.post('/api/v2/states/attendance/', { data: { title, active: 1 }, headers });
    expect(created.status(), await created.text()).toBe(201);
    return (await created.json()).data.id as string;
  };
  const conference = `Conference ${tag}`;
  const travel = `Travel ${tag}`;
  const [conferenceId, travelId] = [await statusOf(conference), await statusOf(travel)];
  const accountId = await createAccountThroughRest(request, newAccount('series'));
  // the 16th to the 20th of this month, the 18th changed alone, as another client would
  const now = new Date();
  const month = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
  const group = await request.post(`/api/v2/account/${accountId}/tracking-status/`, {
    data: { event_group_title: 'Offsite', status_id: conferenceId, start_date: `${month}-16`, end_date: `${month}-20`, start_time: '09:00', end_time: '17:00', description: '', single: false, account_id: accountId },
    headers,
  });
  expect(group.status(), await group.text()).toBe(201);
  const groupId = (await group.json()).data.event_group_id as string;
  const events = (await (await request.get(`/api/v1/account/${accountId}/calendar?date=${month}`, { headers })).json()) as { id: string; start_date: string }[];
  const the18th = events.find((event) => event.start_date.startsWith(`${month}-18`))!;
  const alone = await request.put(`/api/v2/account/${accountId}/tracking-status/`, {
    data: { event_id: the18th.id, event_group_id: groupId, title: 'Travel day', description: '', status_id: travelId, start_date: `${month}-18 12:00`, end_date: `${month}-18 15:00`, single: true, account_id: accountId },
    headers,
  });
  expect(alone.status(), await alone.text()).toBe(200);

  await signIn(page);
  await expect(page.getByRole('navigation')).toBeVisible();
  await openCalendar(page, accountId);
  await expect(page.getByRole('button', { name: `Offsite – ${conference}` })).toHaveCount(4);
  await expect(page.getByRole('button', { name: `Travel day – ${travel}` })).toHaveCount(1);

  // rename the whole group from the 16th: the dialog names the day changed alone, which keeps its changes
  await page.getByRole('button', { name: `Offsite – ${conference}` }).first().click();
  const edit = page.getByRole('dialog', { name: 'Edit event group' });
  await expect(edit.getByText('1 day changed alone keeps its changes')).toBeVisible();
  await expect(edit.getByRole('checkbox', { name: "Reset it to the group's values too" })).not.toBeChecked();
  await expectAccessible(page, 'event dialog naming a day changed alone');
  await edit.getByLabel('Title').fill('Summit');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Event created successfully')).toBeVisible();
  await expect(edit).toBeHidden();
  await expect(page.getByRole('button', { name: `Summit – ${conference}` })).toHaveCount(4);
  await expect(page.getByRole('button', { name: `Travel day – ${travel}` })).toHaveCount(1);

  // the day changed alone opens as that day alone, with its own values; switched to the whole
  // group, the form shows the group's values (saving does not spread the day's over the group)
  await page.getByRole('button', { name: `Travel day – ${travel}` }).click();
  await expect(edit.getByRole('switch', { name: 'Edit only selected day' })).toBeChecked();
  await expect(edit.getByLabel('Title')).toHaveValue('Travel day');
  await edit.getByRole('switch', { name: 'Edit only selected day' }).uncheck();
  await expect(edit.getByLabel('Title')).toHaveValue('Summit');
  await expect(edit.getByRole('combobox', { name: 'Status' })).toHaveText(conference);
  await edit.getByRole('button', { name: 'Cancel' }).click();
  await expect(edit).toBeHidden();

  // asked to reset: the 18th takes the group's values too
  await page.getByRole('button', { name: `Summit – ${conference}` }).first().click();
  await expect(edit.getByText('1 day changed alone keeps its changes')).toBeVisible();
  await edit.getByRole('checkbox', { name: "Reset it to the group's values too" }).check();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByRole('button', { name: `Summit – ${conference}` })).toHaveCount(5);
  await expect(page.getByRole('button', { name: `Travel day – ${travel}` })).toHaveCount(0);
  // nothing is changed alone any more: the dialog says nothing about it
  await page.getByRole('button', { name: `Summit – ${conference}` }).first().click();
  await expect(edit.getByLabel('Title')).toHaveValue('Summit');
  await expect(edit.getByText(/changed alone/)).toHaveCount(0);
  await edit.getByRole('button', { name: 'Cancel' }).click();

  // the week view steps by weeks, and its buttons say so
  await page.getByRole('button', { name: 'Week', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Previous week' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Next week' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Previous month' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Day', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Previous day' })).toBeVisible();
});

test('a drag over days or hours, or the keyboard, opens a new event group on that range', async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const token = await restToken(request);
  const status = `Training ${tag}`;
  const created = await request.post('/api/v2/states/attendance/', { data: { title: status, active: 1 }, headers: { authorization: `Bearer ${token}` } });
  expect(created.status(), await created.text()).toBe(201);
  const accountId = await createAccountThroughRest(request, newAccount('drag'));
  await signIn(page);
  await expect(page.getByRole('navigation')).toBeVisible();
  // FullCalendar comes with the Calendar tab, not with the profile (its own chunk)
  const scripts: string[] = [];
  page.on('request', (sent) => {
    if (sent.resourceType() === 'script') scripts.push(sent.url());
  });
  await page.goto(`/accounts/profile/${accountId}`);
  await expect(page.getByRole('tab', { name: 'Calendar' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Profile' })).toHaveAttribute('aria-selected', 'true');
  expect(scripts.filter((url) => /CalendarPanel-/.test(url))).toEqual([]);
  await page.getByRole('tab', { name: 'Calendar' }).click();
  await expect(page.locator('.fc')).toBeVisible({ timeout: 30_000 });
  expect(scripts.filter((url) => /CalendarPanel-/.test(url))).toHaveLength(1);
  const dialog = page.getByRole('dialog', { name: 'Create event group' });

  // the month: from the 3rd to the 5th, whole days
  const [third, fifth] = [dayOfThisMonth(3), dayOfThisMonth(5)];
  await expect(page.getByRole('button', { name: `New event on ${third.shown}`, exact: true })).toBeVisible();
  await drag(page, await centreOf(page, third.iso), await centreOf(page, fifth.iso));
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('input[name=startDate]')).toHaveValue(third.shown);
  await expect(dialog.locator('input[name=endDate]')).toHaveValue(fifth.shown);
  await expect(dialog.locator('input[name=startTime]')).toHaveValue('00:00:00');
  await expect(dialog.locator('input[name=endTime]')).toHaveValue('23:59:59');
  await dialog.getByLabel('Title').fill('Course');
  await dialog.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: status }).click();
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByText('Event created successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: `Course – ${status}` })).toHaveCount(3);

  // the keyboard: the days are buttons, the arrows move between them, Enter opens a new event there
  const tenth = dayOfThisMonth(10);
  await page.getByRole('button', { name: `New event on ${tenth.shown}`, exact: true }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('button', { name: `New event on ${dayOfThisMonth(17).shown}`, exact: true })).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  await expect(dialog.locator('input[name=startDate]')).toHaveValue(dayOfThisMonth(16).shown);
  await expect(dialog.locator('input[name=endDate]')).toHaveValue(dayOfThisMonth(16).shown);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  // an event takes Enter too: its edit dialog
  await page.getByRole('button', { name: `Course – ${status}` }).first().focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Edit event group' }).getByLabel('Title')).toHaveValue('Course');
  await page.getByRole('dialog', { name: 'Edit event group' }).getByRole('button', { name: 'Cancel' }).click();

  // the week of the 10th: from 09:00 to 12:00 on the 10th, a drag over three hour slots
  await page.getByRole('button', { name: 'Week', exact: true }).click();
  // the week view opens on the week of today; the 10th's week is found by stepping
  for (let step = 0; step < 6 && !(await page.locator(`td.fc-timegrid-col[data-date="${tenth.iso}"]`).count()); step += 1) {
    await page.getByRole('button', { name: tenth.iso < tenthOfThisMonth().today ? 'Previous week' : 'Next week' }).click();
  }
  // both ends measured once the hours are in view (measuring the second must not scroll the first away)
  await page.locator('td.fc-timegrid-slot-lane[data-time="12:00:00"]').scrollIntoViewIfNeeded();
  await centreOf(page, tenth.iso, '09:00:00');
  const [nine, eleven] = [await centreOf(page, tenth.iso, '09:00:00'), await centreOf(page, tenth.iso, '11:00:00')];
  expect(eleven.y - nine.y).toBeGreaterThan(40);
  await drag(page, nine, eleven);
  await expect(dialog.locator('input[name=startDate]')).toHaveValue(tenth.shown);
  await expect(dialog.locator('input[name=startTime]')).toHaveValue('09:00:00');
  await expect(dialog.locator('input[name=endTime]')).toHaveValue('12:00:00');
  await expectAccessible(page, 'week view with a dragged selection');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
});

test('the calendar speaks German and lists the week on a phone', async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const headers = { authorization: `Bearer ${await restToken(request)}` };
  const status = `Urlaub ${tag}`;
  const created = await request.post('/api/v2/states/attendance/', { data: { title: status, active: 1 }, headers });
  expect(created.status(), await created.text()).toBe(201);
  const accountId = await createAccountThroughRest(request, newAccount('kalender'));
  const { today } = tenthOfThisMonth();
  const group = await request.post(`/api/v2/account/${accountId}/tracking-status/`, {
    data: { event_group_title: 'Betriebsausflug', status_id: (await created.json()).data.id, start_date: today, end_date: today, start_time: '10:00', end_time: '16:00', description: '', single: false, account_id: accountId },
    headers,
  });
  expect(group.status(), await group.text()).toBe(201);
  await signIn(page);
  await expect(page.getByRole('navigation')).toBeVisible();
  await page.evaluate(() => window.localStorage.setItem('rollcall.language', 'de'));
  await openCalendar(page, accountId);
  await expect(page.getByRole('button', { name: 'Vorheriger Monat' })).toBeVisible();
  await expect(page.getByRole('columnheader').first()).toHaveText(/^Mo/);
  const month = new Intl.DateTimeFormat('de-DE', { month: 'long', year: 'numeric' }).format(new Date());
  await expect(page.getByRole('heading', { level: 2, name: month })).toBeVisible();
  await expect(page.getByRole('button', { name: `Betriebsausflug – ${status}` })).toHaveCount(1);
  await expectAccessible(page, 'month view in German');
  await page.getByRole('button', { name: 'Woche', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Vorherige Woche' })).toBeVisible();
  await expect(page.getByText('Ganztägig')).toBeVisible();
  await expect(page.getByRole('columnheader').first()).toHaveText(/^Mo\. \d{2}\.\d{2}\./);
  await expectAccessible(page, 'week view in German');
  await page.getByRole('button', { name: 'Tag', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Vorheriger Tag' })).toBeVisible();
  await expect(page.getByRole('button', { name: `Betriebsausflug – ${status}` })).toHaveCount(1);
  await expectAccessible(page, 'day view in German');
  // a day and a week with no event: the hours' scroll area is still reached by the keyboard, and named
  await page.getByRole('button', { name: 'Nächster Tag' }).click();
  await expect(page.getByRole('button', { name: `Betriebsausflug – ${status}` })).toHaveCount(0);
  await expect(page.getByRole('gridcell', { name: 'Stunden der gezeigten Tage' })).toHaveAttribute('tabindex', '0');
  await expectAccessible(page, 'a day without events, in German');
  await page.getByRole('button', { name: 'Woche', exact: true }).click();
  await page.getByRole('button', { name: 'Nächste Woche' }).click();
  await expect(page.getByRole('button', { name: `Betriebsausflug – ${status}` })).toHaveCount(0);
  await expect(page.getByRole('gridcell', { name: 'Stunden der gezeigten Tage' })).toHaveAttribute('tabindex', '0');
  await expectAccessible(page, 'a week without events, in German');
  await page.getByRole('button', { name: 'Heute' }).click();

  // a phone: the week is a list of its events, each opens its dialog
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.locator('.fc-list')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Vorherige Woche' })).toBeVisible();
  const row = page.getByRole('button', { name: `Betriebsausflug – ${status}` });
  await expect(row).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page, 'the week listed on a phone, in German');
  await row.click();
  await expect(page.getByRole('dialog', { name: 'Terminreihe bearbeiten' }).getByLabel('Titel')).toHaveValue('Betriebsausflug');
  await page.evaluate(() => window.localStorage.setItem('rollcall.language', 'en'));
});
