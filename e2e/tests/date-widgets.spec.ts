import { expect, test, type Page } from '@playwright/test';
import { createAccountThroughRest, expectAccessible, newAccount, openCreateAccount, signIn } from '../support/console';

const pad = (n: number) => String(n).padStart(2, '0');
const shown = (date: Date) => `${pad(date.getDate())}.${pad(date.getMonth() + 1)}.${date.getFullYear()}`;
/** this week's Monday and its ISO week number, in the browser's (this machine's) zone */
function thisWeek(): { monday: Date; week: number } {
  const today = new Date();
  const monday = new Date(today.getFullYear(), today.getMonth(), today.getDate() - ((today.getDay() + 6) % 7));
  const thursday = new Date(monday.getFullYear(), monday.getMonth(), monday.getDate() + 3);
  const firstThursday = new Date(thursday.getFullYear(), 0, 4);
  const firstMonday = new Date(firstThursday.getFullYear(), 0, 4 - ((firstThursday.getDay() + 6) % 7));
  return { monday, week: Math.round((monday.getTime() - firstMonday.getTime()) / (7 * 86_400_000)) + 1 };
}
const fieldValue = (page: Page, name: string) => page.locator(`input[name=${name}]`);

test('one date and time widget: DD.MM.YYYY and a 24-hour clock in both languages, no native date inputs; period pickers show their period in the field', async ({ page, request }) => {
  const ada = newAccount('ada');
  const adaId = await createAccountThroughRest(request, ada);
  await signIn(page);

  // Create account: the expiry date is the console's date picker, DD.MM.YYYY, never the browser's mm/dd/yyyy
  const create = await openCreateAccount(page);
  await create.getByRole('switch', { name: 'Set expiry date' }).check();
  const expiry = create.getByRole('group', { name: 'Expiry date' });
  await expect(expiry.getByRole('spinbutton', { name: 'Day' })).toBeVisible();
  await expect(create.locator('input[type=date], input[type=datetime-local]')).toHaveCount(0);
  await expiry.getByRole('spinbutton', { name: 'Day' }).click();
  await page.keyboard.type('24122030');
  await expect(fieldValue(page, 'expires_at')).toHaveValue('24.12.2030');
  await expectAccessible(page, 'create account expiry');
  await create.getByRole('button', { name: 'Cancel' }).click();

  // Access token: expires 30 days ahead, shown DD.MM.YYYY HH:mm (24-hour)
  await page.goto('/access-tokens');
  await page.getByRole('button', { name: 'Add Token' }).click();
  const token = page.getByRole('dialog');
  await expect(token.getByRole('group', { name: 'Expires' })).toBeVisible();
  await expect(fieldValue(page, 'expires_at')).toHaveValue(/^\d\d\.\d\d\.\d{4} ([01]\d|2[0-3]):\d\d$/);
  await expect(token.locator('input[type=datetime-local]')).toHaveCount(0);
  await page.keyboard.press('Escape');

  // Event log: From typed as DD.MM.YYYY HH:mm, 24-hour; the filter lands in the URL
  await page.goto('/audit/events');
  await expect(page.getByRole('table', { name: 'Events, newest first' }).getByRole('row').nth(1)).toBeVisible();
  await page.getByRole('group', { name: 'From' }).getByRole('spinbutton', { name: 'Day' }).click();
  await page.keyboard.type('201120261730');
  await expect(fieldValue(page, 'from')).toHaveValue('20.11.2026 17:30');
  await page.keyboard.press('Tab');
  const local = new Date(2026, 10, 20, 17, 30).toISOString();
  await expect(page).toHaveURL(new RegExp(`from=${encodeURIComponent(local).replace(/[.]/g, '\\.')}`));
  await expect(page.locator('input[type=datetime-local]')).toHaveCount(0);

  // Statistics: the month field names this month, without a pick
  const now = new Date();
  await page.getByRole('navigation').getByRole('link', { name: 'Statistics' }).click();
  await expect(fieldValue(page, 'date_at')).toHaveValue(`${now.toLocaleString('en-GB', { month: 'long' })} ${now.getFullYear()}`);

  // the Attendance tab: a week shows its number and Monday in the field, a day its date
  await page.goto(`/accounts/profile/${adaId}`);
  await page.getByRole('tab', { name: 'Attendance' }).click();
  await expect(fieldValue(page, 'date_at')).toHaveValue(shown(now));
  await page.getByRole('combobox', { name: 'Show data' }).click();
  await page.getByRole('option', { name: 'Weekly' }).click();
  const { monday, week } = thisWeek();
  await expect(fieldValue(page, 'date_at')).toHaveValue(`Week ${week} from ${shown(monday)}`);
  await expectAccessible(page, 'attendance week picker');

  // German: the same formats, the week as KW
  await page.getByRole('button', { name: 'DE', exact: true }).click();
  await expect(fieldValue(page, 'date_at')).toHaveValue(`KW ${week} ab ${shown(monday)}`);
  await page.getByRole('navigation').getByRole('link', { name: 'Statistik' }).click();
  await expect(fieldValue(page, 'date_at')).toHaveValue(`${now.toLocaleString('de-DE', { month: 'long' })} ${now.getFullYear()}`);
});
