import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createAccountThroughRest, newAccount, newCardUid, postScanAsReader, registerReaderThroughRest, restToken, signIn } from '../support/console';

/**
 * The live and audit screens pass axe-core with no serious or critical finding (WCAG 2.1 AA and
 * best practice), in English and German, on a desktop and a 390x844 phone, with data on them: a
 * person in, a corrected slot, an unknown card.
 */
const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;
const LANGUAGES = ['en', 'de'] as const;

let seeded: { accountId: string } | null = null;

async function seed(request: APIRequestContext) {
  if (seeded) return seeded;
  const tag = Date.now().toString(36);
  const headers = { authorization: `Bearer ${await restToken(request)}` };
  const person = newAccount('axe');
  const accountId = await createAccountThroughRest(request, person);
  const uid = newCardUid();
  expect((await request.post('/api/v2/scanner/unknown-cards/assign', { data: { card_uid: uid, account_id: accountId }, headers })).status()).toBe(201);
  const door = await registerReaderThroughRest(request, { name: `Axe ${tag}`, door: `Axe door ${tag}`, role: 'door' });
  expect((await postScanAsReader(request, door.token, { card_uid: uid, sequence: 1 })).outcome).toBe('arrival');
  expect((await postScanAsReader(request, door.token, { card_uid: newCardUid(), sequence: 2 })).outcome).toBe('unknown_card');
  const slot = (await (await request.get(`/api/v2/logs/arrivals-departures?account_id=${accountId}`, { headers })).json()).data.data[0] as { id: string; arrived_at: string };
  const corrected = await request.patch(`/api/v2/logs/arrivals-departures/edit/${slot.id}`, { data: { arrived_at: new Date(Date.parse(slot.arrived_at) - 60_000).toISOString(), departed_at: null, reason: 'axe' }, headers });
  expect(corrected.status(), await corrected.text()).toBe(200);
  seeded = { accountId };
  return seeded;
}

async function expectNoSeriousFindings(page: Page, label: string) {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const blocking = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(blocking.map((violation) => `${label}: ${violation.id} (${violation.impact}) ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
}

for (const language of LANGUAGES) {
  for (const [size, viewport] of Object.entries(SIZES)) {
    test(`the live and audit screens have no serious accessibility finding (${language}, ${size})`, async ({ page, request }) => {
      test.setTimeout(180_000);
      const { accountId } = await seed(request);
      await page.setViewportSize(viewport);
      await signIn(page);
      // the language chosen as an administrator would (the switch keeps it in local storage); screens load with it
      await page.evaluate((lang) => window.localStorage.setItem('rollcall.language', lang), language);
      const screens: Array<[string, string, RegExp]> = [
        ['presence', '/presence', /Presence|Anwesenheit/],
        ['arrivals and departures', '/arrivals-departures', /Arrivals \/ Departures|Kommen \/ Gehen/],
        ['statistics', '/statistics', /Statistics|Statistik/],
        ['event log', '/audit/events', /Event log|Ereignisprotokoll/],
        ['projections', '/audit/projections', /Projections|Projektionen/],
        ['unknown cards', '/unknown-cards', /Unknown cards|Unbekannte Karten/],
        ['attendance tab', `/accounts/profile/${accountId}?tab=attendance`, /.+/],
      ];
      for (const [label, path, heading] of screens) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
        await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 15_000 });
        await expectNoSeriousFindings(page, `${label} (${language}, ${size})`);
      }
    });
  }
}
