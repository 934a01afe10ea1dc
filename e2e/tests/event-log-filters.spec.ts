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

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the event log shows its table first and keeps the filters behind a button that counts them', async ({ page }) => {
    await signIn(page);
    await page.goto('/audit/events?actor=system&type=AccountCreated');
    await expect(page.getByRole('heading', { level: 1, name: 'Event log' })).toBeVisible();
    const stream = page.getByLabel('Stream or entity');
    await expect(stream).toBeHidden();
    // the first event is on the first screen, not under a screenful of filters
    const firstEvent = page.getByRole('table', { name: 'Events, newest first' }).getByRole('row').nth(1);
    await expect(firstEvent).toBeVisible();
    expect((await firstEvent.boundingBox())?.y ?? 9999).toBeLessThan(844 - 40);
    // when, what and who without a sideways scroll; the stream opens with the row
    const headers = page.getByRole('table', { name: 'Events, newest first' }).getByRole('columnheader');
    await expect(headers).toHaveCount(4);
    const actor = await headers.nth(3).boundingBox();
    expect(actor?.x ?? 999).toBeLessThan(390 - 40);
    await expect(headers.nth(3)).toHaveText('Actor');
    await firstEvent.getByRole('button', { name: 'Show payload and metadata' }).click();
    await expect(page.getByRole('definition').filter({ hasText: /^account-/ })).toBeVisible();

    // two filters in use, said in the button's name
    const button = page.getByRole('button', { name: 'Filters (2)' });
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await button.click();
    await expect(stream).toBeVisible();
    await expect(page.getByRole('button', { name: 'Hide filters (2)' })).toHaveAttribute('aria-expanded', 'true');

    // a wrong filter is named while the filters are folded away
    await page.goto('/audit/events?actor=not-an-id');
    await expect(page.getByRole('button', { name: 'Filters (1)' })).toBeVisible();
    await expect(stream).toBeHidden();
    await expect(page.getByText(/^Actor .*: actor must be an account, access token or door reader id \(a UUID\), or system$/)).toBeVisible();
  });
});

test('on a desktop, the event log shows its filters without a button', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await page.goto('/audit/events');
  await expect(page.getByLabel('Stream or entity')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Filters/ })).toHaveCount(0);
});
