import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { Workbook } from 'exceljs';
import Papa from 'papaparse';
import { createAccountThroughRest, expectAccessible, newAccount, newCardUid, registerReaderThroughRest, restToken, signIn } from '../support/console';

const ZONE = 'Europe/Berlin';
const MINUTE = 60_000;

/** a door scan made at `at` (the reader's clock), sent now */
async function scanAt(request: APIRequestContext, readerToken: string, scan: { card_uid: string; sequence: number; at: Date }): Promise<string> {
  const answer = await request.post('/api/v2/reader/scans', {
    data: { sent_at: new Date().toISOString(), scans: [{ card_uid: scan.card_uid, sequence: scan.sequence, device_time: scan.at.toISOString() }] },
    headers: { authorization: `Bearer ${readerToken}` },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  return (await answer.json()).acks[0].outcome as string;
}

/** an instant as the tab shows it in the account's zone */
function inZone(at: Date) {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(at).map((part) => [part.type, part.value]));
  return { date: `${parts.day}.${parts.month}.${parts.year}`, time: `${parts.hour}:${parts.minute}:${parts.second}` };
}

async function downloaded(page: Page, button: string) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), content: await readFile(path) };
}

test("an account's Attendance tab shows its slots in its own zone with the averages, and Statistics shows, charts and downloads the month", async ({ page, request }, testInfo) => {
  // two screens, two downloads and a lazily loaded chart library on a shared machine
  test.slow();
  const tag = Date.now().toString(36);
  const ada = newAccount('attendance');
  const adaId = await createAccountThroughRest(request, ada);
  const headers = { authorization: `Bearer ${await restToken(request)}` };
  // a zone other than this machine's (UTC): the tab must show Berlin's clock, not the browser's
  const zoned = await request.put(`/api/v2/account/${adaId}`, { data: { first_name: ada.first_name, last_name: ada.last_name, email: ada.email, time_zone: ZONE }, headers });
  expect(zoned.status(), await zoned.text()).toBe(200);
  const card = newCardUid();
  const assigned = await request.post('/api/v2/scanner/unknown-cards/assign', { data: { card_uid: card, account_id: adaId }, headers });
  expect(assigned.status(), await assigned.text()).toBe(201);
  const door = await registerReaderThroughRest(request, { name: `Reports ${tag}`, door: `Front door ${tag}`, role: 'door' });
  // in 40 minutes ago, out 10 minutes ago: 30 minutes logged today
  const arrived = new Date(Math.floor((Date.now() - 40 * MINUTE) / 1000) * 1000);
  const departed = new Date(arrived.getTime() + 30 * MINUTE);
  expect(await scanAt(request, door.token, { card_uid: card, sequence: 1, at: arrived })).toBe('arrival');
  expect(await scanAt(request, door.token, { card_uid: card, sequence: 2, at: departed })).toBe('departure');
  const adaName = `${ada.first_name} ${ada.last_name}`;

  await signIn(page);
  await page.goto(`/accounts/profile/${adaId}?tab=attendance`);
  await expect(page.getByRole('tab', { name: 'Attendance', selected: true })).toBeVisible({ timeout: 30_000 });
  const table = page.getByRole('table', { name: 'Attendance' });
  const shownIn = inZone(arrived);
  const shownOut = inZone(departed);
  // Daily, today: the slot in Berlin time, 30 minutes logged
  await expect(table.getByRole('row', { name: new RegExp(`${shownIn.date} ${shownIn.time} ${shownOut.date} ${shownOut.time} 00:30:00`) })).toBeVisible();
  await expect(page.getByText(new RegExp(`^Average Time Arrived \\(UTC\\+[12]\\): ${shownIn.time}$`))).toBeVisible();
  await expect(page.getByText(new RegExp(`^Average Time Departed \\(UTC\\+[12]\\): ${shownOut.time}$`))).toBeVisible();
  await expect(page.getByText('Average Working Hours: 00:30:00')).toBeVisible();
  // the Day field says its date once: no helper line under it repeating it
  await expect(page.locator('.MuiFormHelperText-root', { hasText: shownIn.date })).toHaveCount(0);
  // labelled as every time in the console: the zone's offset (Berlin's, winter or summer), its name beside it
  await expect(page.getByText(new RegExp(`Times in UTC\\+[12] \\(${ZONE}\\)`))).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('attendance-tab.png'), fullPage: true });
  await expectAccessible(page, 'attendance tab');

  // Weekly: the picker shows week numbers, weeks start on Monday; days of the week so far without data say so
  await page.getByRole('combobox', { name: 'Show data' }).click();
  await page.getByRole('option', { name: 'Weekly' }).click();
  await expect(table.getByRole('row', { name: new RegExp(`${shownIn.time}`) })).toBeVisible();
  await page.getByRole('group', { name: 'Week' }).getByRole('button', { name: 'Choose date' }).click();
  const calendar = page.getByRole('dialog');
  await expect(calendar.getByRole('columnheader').first()).toBeVisible();
  const headings = await calendar.getByRole('columnheader').allTextContents();
  // the first column holds the week numbers, then Monday
  expect(headings.slice(0, 2).map((text) => text.trim())).toEqual(['#', 'M']);
  await page.keyboard.press('Escape');

  // Monthly: a month picker; the mode change cleared the date, so this month shows, with 'No data' days before today
  await page.getByRole('combobox', { name: 'Show data' }).click();
  await page.getByRole('option', { name: 'Monthly' }).click();
  await expect(page.getByRole('group', { name: 'Month' })).toBeVisible();
  await expect(table.getByRole('row', { name: new RegExp(`${shownIn.time}`) })).toBeVisible();
  if (Number(shownIn.date.slice(0, 2)) > 1) await expect(table.getByText('No data').first()).toBeVisible();

  // Statistics: this month, the account's row, the charts, and both files
  await page.getByRole('navigation').getByRole('link', { name: 'Statistics' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Statistics' })).toBeVisible({ timeout: 30_000 });
  const statistics = page.getByRole('table', { name: 'Attendance statistics' });
  const row = statistics.getByRole('row', { name: new RegExp(adaName) });
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(row).toContainText('00:30:00');
  await expect(row).toContainText(shownIn.time);
  await expect(page.getByRole('figure', { name: 'Present per day' }).getByRole('application')).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Hours logged per account (this page)' }).locator('.recharts-bar-rectangle').first()).toBeAttached();
  await page.screenshot({ path: testInfo.outputPath('statistics.png'), fullPage: true });
  await expectAccessible(page, 'statistics');

  const month = new Date().toISOString().slice(0, 7);
  const csv = await downloaded(page, 'Download CSV');
  expect(csv.name).toBe(`attendance-statistics-${month}.csv`);
  const parsed = Papa.parse<Record<string, string>>(csv.content.toString('utf8'), { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  expect(parsed.data.find((line) => line['Account ID'] === adaId)).toMatchObject({ Account: adaName, Month: month, 'Days present': '1', 'Total time': '00:30:00', 'Total seconds': '1800', 'Average arrival': shownIn.time, 'Average departure': shownOut.time });

  const xlsx = await downloaded(page, 'Download XLSX');
  expect(xlsx.name).toBe(`attendance-statistics-${month}.xlsx`);
  const workbook = new Workbook();
  await workbook.xlsx.load(new Uint8Array(xlsx.content).buffer);
  const sheet = workbook.worksheets[0];
  expect(sheet.getRow(1).getCell(1).value).toBe('Account');
  const rows = Array.from({ length: sheet.rowCount - 1 }, (_, index) => sheet.getRow(index + 2));
  const adaRow = rows.find((line) => line.getCell(10).value === adaId);
  expect(adaRow?.getCell(1).value).toBe(adaName);
  expect(adaRow?.getCell(6).value).toBe(1800);

  // the month filter lives in the URL: last year's month has nothing
  await page.goto(`/statistics?date_at=${Number(month.slice(0, 4)) - 1}-${month.slice(5)}`);
  await expect(page.getByText('No attendance in this month')).toBeVisible();
});
