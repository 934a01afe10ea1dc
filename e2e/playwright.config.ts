import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * Runs the real, built product (API + console on one port, SQLite in a fresh temp dir) and drives
 * Debian's Chromium: never a downloaded browser.
 */
const port = Number(process.env.E2E_PORT ?? 3217);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'rollcall-e2e-'));
process.env.E2E_DATA_DIR = dataDir; // workers re-evaluate this file: keep one data dir per run

export const ADMIN = { username: 'admin', password: 'e2e admin password 2026' };

export default defineConfig({
  testDir: './tests',
  // the scenarios are long (a screen end to end); a busy 2-core machine has taken over 60 s for some
  timeout: 120_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: './test-results',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost'],
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: 'node ../apps/api/dist/main.js',
    url: `http://127.0.0.1:${port}/api/openapi.json`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      ROLLCALL_DATA_DIR: dataDir,
      ROLLCALL_ADMIN_USERNAME: ADMIN.username,
      ROLLCALL_ADMIN_PASSWORD: ADMIN.password,
      ROLLCALL_LOG_LEVEL: 'warn',
      // the log mailer also writes each mail to <data dir>/mail.log: specs read activation links there
      ROLLCALL_MAIL_LOG_FILE: 'mail.log',
      ROLLCALL_MAIL_POLL_MS: '100',
    },
  },
});
