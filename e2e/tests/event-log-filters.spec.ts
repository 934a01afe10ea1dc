import { expect, test } from '@playwright/test';
import { signIn } from '../support/console';

test('the event log says which filter is wrong and why, rather than that no event matches', async ({ page }) => {
  await signIn(page);
  // From after To
  await page.goto('/audit/events?from=2026-11-20T10:00:00.000Z&to=2026-11-10T10:00:00.000Z');
  await expect(page.getByText('To: to must be after from')).toBeVisible();
  await expect(page.getByText('No event matches')).toHaveCount(0);
  // an actor that no event can have
  await page.goto('/audit/events?actor=not-an-id');
  await expect(page.getByText(/^Actor .*: actor must be an account, access token or door reader id \(a UUID\), or system$/)).toBeVisible();
  await expect(page.getByText('No event matches')).toHaveCount(0);
  // a valid one filters as before
  await page.goto('/audit/events?actor=system');
  await expect(page.getByRole('table', { name: 'Events, newest first' }).getByRole('row').nth(1)).toBeVisible();
});
