import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { createAccountThroughRest, createOrganizationThroughRest, newAccount, registerReaderThroughRest, signIn } from '../support/console';

/**
 * axe-core (WCAG 2.1 AA and best practice) on the shell and the directory's screens, in English and
 * German, on a desktop and on a 390x844 phone: no serious and no critical finding (the live and audit
 * screens have their own spec). Each screen is checked once its data has loaded.
 */
/**
 * WCAG 2.1 A and AA and axe's best practices, plus the check that a control's accessible name holds
 * its visible text (WCAG 2.5.3, which axe ships as experimental, off by default).
 */
async function expectAccessible(page: Page, label: string): Promise<void> {
  // a dialog fading in has a lowered opacity: axe would measure the contrast mid-transition
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity));
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  const blocking = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(blocking.map((v) => `${label}: ${v.id} (${v.impact}) ${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 200)}`).join(', ')}`)).toEqual([]);
}

const VIEWPORTS = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;

async function chooseLanguage(page: Page, language: 'en' | 'de'): Promise<void> {
  await page.evaluate((value) => window.localStorage.setItem('rollcall.language', value), language);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', language);
}

/** a screen whose table (or main content) has loaded: no progress indicator left in the main area */
async function settled(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('main [role=progressbar]')).toHaveCount(0);
}

for (const language of ['en', 'de'] as const) {
  for (const [device, viewport] of Object.entries(VIEWPORTS)) {
    test(`the shell and the directory's screens pass axe in ${language} on a ${device}`, async ({ page, request }) => {
      const accountId = await createAccountThroughRest(request, newAccount('axe'));
      const organizationId = await createOrganizationThroughRest(request, `Axe ${language} ${device} ${Date.now().toString(36)}`);
      await registerReaderThroughRest(request, { name: `Axe desk ${language} ${device} ${Date.now().toString(36)}`, door: 'Hall', role: 'enrollment' });
      await page.setViewportSize(viewport);
      await signIn(page);
      await chooseLanguage(page, language);

      const screens: Array<[string, string]> = [
        ['accounts list', '/accounts'],
        ['account profile', `/accounts/profile/${accountId}`],
        ['organizations', '/organizations'],
        ['organization details', `/organizations/details/${organizationId}`],
        ['teams', '/teams'],
        ['applications', '/applications'],
        ['password policies', '/password-policies'],
        ['door readers', '/readers'],
        ['access tokens', '/access-tokens'],
      ];
      for (const [name, path] of screens) {
        await page.goto(path);
        await settled(page);
        await expectAccessible(page, `${name} (${language}, ${device})`);
        await page.screenshot({ path: `/tmp/sc/axe-${language}-${device}-${name.replace(/ /g, '-')}.png`, fullPage: device === 'desktop' });
      }

      // the create account dialog
      await page.goto('/accounts');
      await settled(page);
      await page.getByRole('button', { name: language === 'en' ? 'Create account' : 'Konto anlegen' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectAccessible(page, `create account (${language}, ${device})`);
      await page.screenshot({ path: `/tmp/sc/axe-${language}-${device}-create-account.png` });
      await page.keyboard.press('Escape');

      // the shell: the user menu open, and on a phone the navigation drawer
      await page.getByRole('button', { name: language === 'en' ? /User menu of/ : /Benutzermenü von/ }).click();
      await expect(page.getByRole('menu')).toBeVisible();
      await expectAccessible(page, `user menu (${language}, ${device})`);
      await page.keyboard.press('Escape');
      if (device === 'phone') {
        await page.getByRole('button', { name: language === 'en' ? 'Open navigation menu' : /Navigation/ }).click();
        await expect(page.getByRole('navigation')).toBeVisible();
        await expectAccessible(page, `drawer (${language}, ${device})`);
      }
    });
  }
}

test('a skip link is the first stop of the keyboard and leads past the top bar and the menu to the screen', async ({ page }) => {
  await signIn(page);
  await page.goto('/accounts');
  await settled(page);
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to the content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main-content')).toBeFocused();
  // the next stop is on the screen itself, not the top bar or the menu
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main')))).toBe(true);
  // without the skip link, the top bar's controls come before the screen's
  await page.goto('/accounts');
  await settled(page);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => Boolean(document.activeElement?.closest('header')))).toBe(true);
});

test('each screen titles the browser tab, and a profile is titled by the person with a way back', async ({ page, request }) => {
  const account = newAccount('title');
  const accountId = await createAccountThroughRest(request, account);
  await signIn(page);
  await expect(page).toHaveTitle('Accounts — Rollcall');
  await page.goto('/organizations');
  await expect(page).toHaveTitle('Organizations — Rollcall');
  await page.goto(`/accounts/profile/${accountId}`);
  const name = `${account.first_name} ${account.last_name}`;
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page).toHaveTitle(`${name} — Rollcall`);
  // the tabs come first, the profile is the first of them
  await expect(page.getByRole('tab', { name: 'Profile' })).toHaveAttribute('aria-selected', 'true');
  await page.setViewportSize({ width: 1440, height: 900 });
  for (const tab of await page.getByRole('tablist', { name: 'Account sections' }).getByRole('tab').all()) await expect(tab).toBeInViewport();
  await page.getByRole('navigation', { name: 'You are here' }).getByRole('link', { name: 'Accounts' }).click();
  await expect(page).toHaveURL(/\/accounts$/);
});

test('a failing server is described as failing, not as unreachable', async ({ page }) => {
  await signIn(page);
  // the list goes in whatever batch carries it (on a first screen, auth.me's: router.tsx preloadScreen)
  const carriesList = (url: URL) => url.pathname.startsWith('/trpc/') && url.pathname.slice('/trpc/'.length).split(',').includes('accounts.list');
  await page.route(carriesList, (route) => route.fulfill({ status: 500, contentType: 'text/html', body: '<h1>Internal Server Error</h1>' }));
  await page.goto('/accounts');
  await expect(page.getByText(/The server failed to answer this request/)).toBeVisible();
  await expect(page.getByText(/could not be reached/)).toHaveCount(0);
});

test('a slow first load shows a splash, not a blank page', async ({ page }) => {
  await page.route('**/assets/*.js', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await page.goto('/login', { waitUntil: 'commit' });
  await expect(page.getByRole('status')).toContainText('Rollcall');
});
