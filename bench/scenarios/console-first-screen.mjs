// The console's first screen (docs/benchmarks.md, 'Scenarios'), in headless Chromium (playwright-core,
// Debian's /usr/bin/chromium) against the real API (startApp serving the built console from
// apps/console/dist, with 1,000 accounts in the read model).
//
// (a) JavaScript shipped: a fresh browser context opens /login (until the Sign in button shows and
//     the network is idle), then signs in through the form and waits for the accounts list's first
//     data row. Every script response is recorded; the size of each is the gzip (node:zlib, default
//     level) of its file in apps/console/dist, since the API serves the files uncompressed. Figures:
//     the sign-in page's scripts, and the sign-in page's plus the accounts list's (goal <= 300 kB,
//     1 kB = 1,000 bytes). Beside it, what Chromium was sent: each script's body as it crossed the
//     wire (the API serves the build's brotli or gzip copy as Chromium's Accept-Encoding allows).
// (b) Time to a usable accounts list: a fresh browser context (empty cache) holding the
//     administrator's `user_session` cookie navigates to /accounts; the time is from the navigation's
//     start (performance.timeOrigin) to the moment the table's first data row is in the DOM and
//     visible (a MutationObserver installed before the page's scripts, read as performance.now()).
//     Goal <= 1 s. The same context then navigates to /accounts again (scripts in the HTTP cache).
/* global window, document, MutationObserver -- the functions given to the page run in Chromium */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { configFor, seedAccounts } from './list-accounts.mjs';
import { ADMIN, api, fmtInt, log, now, REPO_ROOT, removeDir, tempDir } from './lib.mjs';

const CONSOLE_DIR = join(REPO_ROOT, 'apps/console/dist');
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // Chromium looks up no outside host
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
];
const ACCOUNTS = 1_000;
/** a data row of the accounts table (the loading, error and empty rows are one cell spanning all columns) */
const DATA_ROW = 'table tbody tr:not(:has(td[colspan]))';
const TIMEOUT_MS = 30_000;

/** gzip bytes of each file on disk, by URL path */
const gzipCache = new Map();
function gzipBytesOf(pathname) {
  if (!gzipCache.has(pathname)) {
    const file = join(CONSOLE_DIR, decodeURIComponent(pathname));
    if (!file.startsWith(CONSOLE_DIR) || !existsSync(file)) throw new Error(`script ${pathname} is not in ${CONSOLE_DIR} (rebuilt during the run?)`);
    const raw = readFileSync(file);
    gzipCache.set(pathname, { raw: raw.length, gzip: gzipSync(raw).length });
  }
  return gzipCache.get(pathname);
}

function sizes(paths) {
  let raw = 0;
  let gzip = 0;
  for (const path of paths) {
    const size = gzipBytesOf(path);
    raw += size.raw;
    gzip += size.gzip;
  }
  return { files: paths.length, rawKB: raw / 1000, gzipKB: gzip / 1000 };
}

/** in the page, before its scripts: when the first data row is in the DOM and visible */
function watchFirstRow(selector) {
  const check = () => {
    if (window.__firstRowAt !== undefined) return;
    const row = document.querySelector(selector);
    if (row && row.checkVisibility()) {
      window.__firstRowAt = performance.now();
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true, attributes: true });
}

/** (a) the scripts of the sign-in page, then of the accounts list after signing in through the form */
async function scriptsOfFirstScreen(ctx) {
  const context = await ctx.browser.newContext({ baseURL: ctx.url });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(TIMEOUT_MS);
    const scripts = [];
    const failed = [];
    /** what crossed the wire for each script: its body as sent (compressed) and the encoding */
    const transfers = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      const url = new URL(response.url());
      if (url.origin !== ctx.url) return;
      if (response.status() !== 200) failed.push(`${response.status()} ${url.pathname}`);
      scripts.push(url.pathname);
      const encoding = response.headers()['content-encoding'] ?? 'identity';
      transfers.push(response.request().sizes().then((sizes) => ({ path: url.pathname, bytes: sizes.responseBodySize, encoding })));
    });
    await page.goto('/login', { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Sign in' }).waitFor({ state: 'visible' });
    await page.waitForLoadState('networkidle');
    const signInScripts = [...new Set(scripts)];
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/accounts/);
    await page.locator(DATA_ROW).first().waitFor({ state: 'visible' });
    await page.waitForLoadState('networkidle');
    const allScripts = [...new Set(scripts)];
    if (failed.length) throw new Error(`script requests failed: ${failed.join(', ')}`);
    const sent = new Map((await Promise.all(transfers)).map((transfer) => [transfer.path, transfer]));
    const transferred = {
      kB: [...sent.values()].reduce((sum, transfer) => sum + transfer.bytes, 0) / 1000,
      encodings: [...new Set([...sent.values()].map((transfer) => transfer.encoding))].sort(),
    };
    return { signIn: { ...sizes(signInScripts), paths: signInScripts }, firstScreen: { ...sizes(allScripts), paths: allScripts }, transferred };
  } finally {
    await context.close();
  }
}

/** (b) fresh context, session cookie set, navigation to /accounts until the first data row shows; then again, cached */
async function timeToAccountsList(ctx) {
  const context = await ctx.browser.newContext({ baseURL: ctx.url });
  try {
    await context.addCookies([{ name: 'user_session', value: ctx.token, url: ctx.url, httpOnly: true, sameSite: 'Lax' }]);
    await context.addInitScript(watchFirstRow, DATA_ROW);
    const page = await context.newPage();
    page.setDefaultTimeout(TIMEOUT_MS);
    const navigate = async () => {
      const started = now();
      await page.goto('/accounts', { waitUntil: 'commit' });
      await page.locator(DATA_ROW).first().waitFor({ state: 'visible' });
      const driverMs = now() - started;
      const inPage = await page.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0];
        return { firstRowAt: window.__firstRowAt, responseEnd: nav?.responseEnd, domContentLoaded: nav?.domContentLoadedEventEnd };
      });
      if (!new URL(page.url()).pathname.startsWith('/accounts')) throw new Error(`ended on ${page.url()}, not /accounts: the session cookie was not accepted`);
      // the observer misses a row that becomes visible without a DOM change: then the driver's time
      return { ms: inPage.firstRowAt ?? driverMs, driverMs, observed: inPage.firstRowAt !== undefined, documentMs: inPage.responseEnd, domContentLoadedMs: inPage.domContentLoaded };
    };
    const cold = await navigate();
    const warm = await navigate();
    return { cold, warm };
  } finally {
    await context.close();
  }
}

export const scenarios = [
  {
    name: 'console-first-screen',
    figures: [
      { key: 'signInGzipKB', label: 'JS of the sign-in page, gzip', unit: 'kB', decimals: 1 },
      { key: 'firstScreenGzipKB', label: 'JS of sign-in + accounts list, gzip', unit: 'kB', decimals: 1, goal: { op: '<=', value: 300 } },
      { key: 'firstScreenTransferredKB', label: 'JS of sign-in + accounts list, as sent to Chromium', unit: 'kB', decimals: 1 },
      { key: 'listMs', label: 'time to accounts list, empty cache', unit: 'ms', decimals: 0, goal: { op: '<=', value: 1000 } },
      { key: 'listCachedMs', label: 'time to accounts list, cached', unit: 'ms', decimals: 0 },
    ],
    params: () => ({
      consoleDir: 'apps/console/dist (built), served by the API',
      browser: `headless Chromium (${CHROMIUM}) through playwright-core`,
      accounts: ACCOUNTS + 1,
      gzip: 'node:zlib gzipSync, default level, of each script file on disk; 1 kB = 1,000 bytes',
      firstRow: DATA_ROW,
      storage: 'SQLite event store and read DB',
    }),
    async setup() {
      if (!existsSync(join(CONSOLE_DIR, 'index.html'))) return { skip: 'apps/console/dist is missing: npm run build -w apps/console' };
      if (!existsSync(CHROMIUM)) return { skip: `${CHROMIUM} is missing: apt-get install chromium` };
      const { chromium } = await import('playwright-core');
      const { startApp } = api('create-app');
      const dataDir = tempDir('console-first-screen');
      const ctx = { dataDir, notes: [] };
      try {
        // sign-in is not what is timed: the cheap argon2id of configFor; the real console
        const config = configFor(dataDir, 'sqlite', undefined, { ROLLCALL_CONSOLE_DIR: CONSOLE_DIR });
        const first = await startApp(config, { print: () => undefined });
        await first.close();
        await seedAccounts(config, ACCOUNTS, 'console');
        ctx.app = await startApp(config, { print: () => undefined });
        ctx.url = ctx.app.url;
        const signIn = await fetch(`${ctx.url}/api/v2/admin/authenticate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
        ctx.token = (await signIn.json())?.data?.token;
        if (!ctx.token) throw new Error(`sign-in failed: ${signIn.status}`);
        ctx.browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
        log(`API at ${ctx.url} serving ${CONSOLE_DIR}, ${fmtInt(ACCOUNTS + 1)} accounts; Chromium ${ctx.browser.version()}`);
        return ctx;
      } catch (error) {
        await this.teardown(ctx); // the harness gets no ctx from a set-up that throws
        throw error;
      }
    },
    async warmup(ctx) {
      await scriptsOfFirstScreen(ctx);
      const { cold } = await timeToAccountsList(ctx);
      log(`warm-up: accounts list in ${cold.ms.toFixed(0)} ms`);
    },
    async run(ctx) {
      const scripts = await scriptsOfFirstScreen(ctx);
      const { cold, warm } = await timeToAccountsList(ctx);
      log(
        `JS gzip: sign-in page ${scripts.signIn.gzipKB.toFixed(1)} kB (${scripts.signIn.files} files), with the accounts list ${scripts.firstScreen.gzipKB.toFixed(1)} kB (${scripts.firstScreen.files} files, ${scripts.firstScreen.rawKB.toFixed(0)} kB raw), sent ${scripts.transferred.kB.toFixed(1)} kB (${scripts.transferred.encodings.join(', ')}); accounts list in ${cold.ms.toFixed(0)} ms (driver ${cold.driverMs.toFixed(0)} ms), cached ${warm.ms.toFixed(0)} ms`,
      );
      return { signInGzipKB: scripts.signIn.gzipKB, firstScreenGzipKB: scripts.firstScreen.gzipKB, firstScreenTransferredKB: scripts.transferred.kB, listMs: cold.ms, listCachedMs: warm.ms, scripts, cold, warm };
    },
    async teardown(ctx) {
      await ctx?.browser?.close().catch(() => undefined);
      await ctx?.app?.close().catch(() => undefined);
      if (ctx?.dataDir) removeDir(ctx.dataDir);
    },
  },
];
