import { expect, test, type Page } from '@playwright/test';
import { createAccountThroughRest, expectAccessible, newAccount, signIn } from '../support/console';

/** the tenth of the current month, as the browser's calendar shows it (DD.MM.YYYY) and as the form holds it */
function tenthOfThisMonth() {
  const now = new Date();
  const month = String(now.getMonth() + 1).padStart(2, '0');
  return { label: `10.${month}.${now.getFullYear()}`, todayLabel: `${String(now.getDate()).padStart(2, '0')}.${month}.${now.getFullYear()}` };
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
  await page.goto(`/accounts/profile/${accountId}?tab=calendar`);
  const { label, todayLabel } = tenthOfThisMonth();
  await expect(page.getByRole('button', { name: 'Previous month' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Next month' })).toBeVisible();
  await page.getByRole('button', { name: `New event on ${label}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Create event group' });
  await expect(dialog.getByLabel('Start time')).toHaveValue('00:00:00');
  await expect(dialog.getByLabel('End time')).toHaveValue('23:59:59');
  await dialog.getByLabel('Title').fill('Summer holiday');
  await dialog.getByRole('combobox', { name: 'Status' }).click();
  // an inactive status is not offered for a new event
  await expect(page.getByRole('option', { name: retired })).toHaveCount(0);
  await page.getByRole('option', { name: vacation }).click();
  await dialog.getByLabel('Start time').fill('');
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(dialog.getByText('This field is required')).toBeVisible();
  await expectAccessible(page, 'event dialog with an error');
  await dialog.getByLabel('Start time').fill('08:00:00');
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

  // the week view: a clicked hour slot proposes that hour to the next
  await page.getByRole('button', { name: 'Week', exact: true }).click();
  await expect(page.getByText('All day')).toBeVisible();
  await page.getByRole('button', { name: `New event on ${todayLabel} at 14:00` }).click();
  await expect(dialog.getByLabel('Start time')).toHaveValue('14:00:00');
  await expect(dialog.getByLabel('End time')).toHaveValue('15:00:00');
  await expectAccessible(page, 'week view with the event dialog');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // back in the month: remove the whole group
  await page.getByRole('button', { name: 'Month', exact: true }).click();
  await page.getByRole('button', { name: `Dentist – ${vacation}` }).click();
  await edit.getByRole('button', { name: 'Remove the whole group' }).click();
  await page.getByRole('dialog', { name: 'Remove Dentist?' }).getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Event removed successfully')).toBeVisible();
  await expect(page.getByRole('button', { name: `Dentist – ${vacation}` })).toHaveCount(0);
});
