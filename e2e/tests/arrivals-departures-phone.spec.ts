import { expect, test } from '@playwright/test';
import { signIn } from '../support/console';

test.use({ viewport: { width: 390, height: 844 } });

test('on a phone, Arrivals / Departures keeps its filters behind a button and shows who, in and out first', async ({ page }) => {
  await signIn(page);
  await page.goto('/arrivals-departures');
  await expect(page.getByRole('heading', { level: 1, name: 'Arrivals / Departures' })).toBeVisible();
  const from = page.getByRole('group', { name: 'From' }).or(page.getByLabel('From'));
  await expect(from.first()).toBeHidden();
  const headers = page.getByRole('table', { name: 'Arrivals and departures' }).getByRole('columnheader');
  await expect(headers.nth(0)).toHaveText('Account');
  await expect(headers.nth(1)).toContainText('Arrived');
  await expect(headers.nth(2)).toContainText('Departed');
  // the key columns fit the first screen: no sideways scroll to reach 'Departed'
  const departed = await headers.nth(2).boundingBox();
  expect((departed?.x ?? 999) + (departed?.width ?? 0) / 2).toBeLessThan(390);

  const button = page.getByRole('button', { name: 'Filters' });
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await button.click();
  await expect(from.first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Hide filters' })).toHaveAttribute('aria-expanded', 'true');
});
