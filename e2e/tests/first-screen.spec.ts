import { expect, test } from '@playwright/test';
import { accountsTable, signIn } from '../support/console';

// The console opened on /accounts asks the list, with the URL's paging, together with `auth.me`
// before its first render (routing/console-route.ts `prefetch`, router.tsx preloadScreen): the
// page finds it answered instead of asking only once the shell and the page have rendered.
test('opening the console on the accounts list asks for the list with auth.me, in one request, before the page renders', async ({ page }) => {
  await signIn(page);
  const calls: Array<{ procedures: string[]; input: unknown }> = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/trpc/')) return;
    calls.push({ procedures: decodeURIComponent(url.pathname.slice('/trpc/'.length)).split(','), input: JSON.parse(url.searchParams.get('input') ?? 'null') });
  });
  await page.goto('/accounts?limit=20&sortBy=username&desc=false');
  await expect(accountsTable(page).getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Rows per page' })).toHaveText('20');

  const first = calls.find((call) => call.procedures.includes('accounts.list'));
  expect(first?.procedures).toEqual(expect.arrayContaining(['auth.me', 'accounts.list', 'accounts.statuses']));
  const listInput = (first?.input as Record<string, unknown>)[String(first?.procedures.indexOf('accounts.list'))];
  expect(listInput).toEqual({ page: 1, limit: 20, sortBy: 'username', desc: false });
});
