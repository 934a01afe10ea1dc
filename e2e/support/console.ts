import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN } from '../playwright.config';

/** Small helpers so the specs read like a person's scenario; selectors prefer roles and labels. */
export async function signIn(page: Page, credentials = ADMIN): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(credentials.username);
  await page.getByLabel('Password').fill(credentials.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/accounts/);
}

export async function openCreateAccount(page: Page) {
  await page.getByRole('button', { name: 'Create account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create new account' });
  await expect(dialog).toBeVisible();
  return dialog;
}

export async function fillAccount(dialog: ReturnType<Page['getByRole']>, account: { first_name: string; last_name: string; email: string; username: string; password: string }) {
  await dialog.locator('input[name=first_name]').fill(account.first_name);
  await dialog.locator('input[name=last_name]').fill(account.last_name);
  await dialog.locator('input[name=email]').fill(account.email);
  await dialog.locator('input[name=username]').fill(account.username);
  await dialog.locator('input[name=password]').fill(account.password);
}

export function accountsTable(page: Page) {
  return page.getByRole('table');
}

/** no serious or critical accessibility violation on what the page shows now */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  // a dialog fading in has a lowered opacity: axe would measure the contrast mid-transition
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
  const results = await new AxeBuilder({ page }).analyze();
  const blocking = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(blocking.map((v) => `${label}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** creates an account through REST v2, as another client would */
export async function createAccountThroughRest(request: APIRequestContext, account: Record<string, unknown>): Promise<string> {
  const signedIn = await request.post('/api/v2/admin/authenticate', { data: ADMIN });
  expect(signedIn.status()).toBe(200);
  const token = (await signedIn.json()).data.token as string;
  const created = await request.post('/api/v2/account', { data: account, headers: { authorization: `Bearer ${token}` } });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()).data.id as string;
}

let counter = 0;
export function newAccount(prefix: string) {
  counter += 1;
  const id = `${prefix}${Date.now().toString(36)}${counter}`;
  return { first_name: 'Katherine', last_name: `Johnson ${id}`, email: `${id}@example.com`, username: id, password: 'orbital mechanics 1962' };
}

/** opens /password-policies from the drawer */
export async function openPasswordPolicies(page: Page): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name: 'Password policies' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Password policies' })).toBeVisible();
}

export function policyDialog(page: Page, mode: 'add' | 'edit') {
  return page.getByRole('dialog', { name: mode === 'add' ? 'Add new policy' : 'Edit policy' });
}

/** the row menu (Edit, Delete) of the policy with this title */
export async function openPolicyMenu(page: Page, title: string): Promise<void> {
  await page.getByRole('button', { name: `Actions for ${title}` }).click();
}

export async function pickStrength(page: Page, dialog: ReturnType<Page['getByRole']>, score: number): Promise<void> {
  await dialog.getByRole('combobox', { name: 'Minimum strength' }).click();
  await page.getByRole('option', { name: new RegExp(`^${score} `) }).click();
}

/** opens the profile of the account with this e-mail from the accounts list */
export async function openAccount(page: Page, account: { first_name: string; last_name: string; email: string }): Promise<void> {
  // the main navigation's: a profile's breadcrumb ('You are here') links to Accounts too
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Accounts' }).click();
  await page.getByLabel('Search').fill(account.email);
  await page.getByRole('table').getByRole('link', { name: `${account.first_name} ${account.last_name}` }).click();
  await expect(page).toHaveURL(/\/accounts\/profile\//);
  // the profile is titled by the person
  await expect(page.getByRole('heading', { level: 1, name: `${account.first_name} ${account.last_name}` })).toBeVisible();
}

export function profileForm(page: Page) {
  return page.getByRole('form', { name: 'Profile' });
}

/** a valid 1x1 PNG, for the avatar upload */
export const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** opens the tab 'Account status and Reset password' of the account page shown now (spec tab 7) */
export async function openAccountStatusTab(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Account status and Reset password' }).click();
}

/** the 'Account status' card of the account page (spec tab 7) */
export function accountStatusCard(page: Page) {
  return page.getByRole('form', { name: 'Account status' });
}

/** the 'Reset password' card of the account page (spec tab 7) */
export function resetPasswordCard(page: Page) {
  return page.getByRole('form', { name: 'Reset password' });
}

/** sets status 3 (password change on next login) through REST v1, as another client would */
export async function requirePasswordChangeThroughRest(request: APIRequestContext, accountId: string): Promise<void> {
  const signedIn = await request.post('/api/v1/admin/authenticate', { data: ADMIN });
  const token = (await signedIn.json()).token as string;
  const required = await request.patch(`/api/v1/account/${accountId}/password/next-login`, { headers: { authorization: `Bearer ${token}` } });
  expect(required.status(), await required.text()).toBe(200);
}

/** one admin session per test's request context: the REST helpers of a test share it instead of signing in for each call */
const restTokens = new WeakMap<APIRequestContext, Promise<string>>();

/** a bearer token of the admin for REST v2 calls (one sign-in per test's request context) */
export function restToken(request: APIRequestContext): Promise<string> {
  let token = restTokens.get(request);
  if (!token) {
    token = (async () => {
      const signedIn = await request.post('/api/v2/admin/authenticate', { data: ADMIN });
      expect(signedIn.status()).toBe(200);
      return (await signedIn.json()).data.token as string;
    })();
    token.catch(() => restTokens.delete(request));
    restTokens.set(request, token);
  }
  return token;
}

/** opens /organizations from the drawer */
export async function openOrganizations(page: Page): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name: 'Organizations' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Organizations' })).toBeVisible();
}

/** picks an option of a search picker (organization or account) after typing part of it */
export async function pickOption(page: Page, field: ReturnType<Page['getByRole']>, typed: string, option: string | RegExp): Promise<void> {
  await field.fill(typed);
  await page.getByRole('option', { name: option }).click();
  await expect(page.getByRole('listbox')).toBeHidden();
}

/** 'Create new organization' from a button ('Add organization' or 'Add Suborg'): fills it and creates */
export async function createOrganization(page: Page, button: string, organization: { title: string; description?: string }) {
  await page.getByRole('button', { name: button }).click();
  const dialog = page.getByRole('dialog', { name: 'Create new organization' });
  await dialog.getByRole('textbox', { name: 'Title' }).fill(organization.title);
  if (organization.description) await dialog.getByRole('textbox', { name: 'Description' }).fill(organization.description);
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByText(`Organization ${organization.title} created`)).toBeVisible();
  await expect(dialog).toBeHidden();
}

/** the organization id of the details page shown now */
export function organizationIdOf(page: Page): string {
  const match = /\/organizations\/details\/([0-9a-f-]{36})/.exec(page.url());
  expect(match, page.url()).not.toBeNull();
  return match![1];
}

/** opens an organization tab (Sub-organizations, Details, Members) */
export async function openOrganizationTab(page: Page, name: 'Sub-organizations' | 'Details' | 'Members'): Promise<void> {
  await page.getByRole('tab', { name }).click();
  await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
}

/** creates an organization through REST v2, as another client would; answers its id */
export async function createOrganizationThroughRest(request: APIRequestContext, title: string): Promise<string> {
  const headers = { authorization: `Bearer ${await restToken(request)}` };
  const created = await request.post('/api/v2/organization', { data: { title, description: '' }, headers });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()).data.id as string;
}

/** makes an account a member of an organization through REST v2 */
export async function addMemberThroughRest(request: APIRequestContext, organizationId: string, accountId: string): Promise<void> {
  const headers = { authorization: `Bearer ${await restToken(request)}` };
  const added = await request.post(`/api/v2/organization/${organizationId}/member`, { data: { account_id: accountId }, headers });
  expect(added.status(), await added.text()).toBe(201);
}

/** opens any tab of the organization details page by its label (Permissions, Roles, ...) */
export async function openOrganizationSection(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name, exact: true }).click();
  await expect(page.getByRole('tab', { name, exact: true })).toHaveAttribute('aria-selected', 'true');
}

/** opens /teams from the drawer */
export async function openTeams(page: Page): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name: 'Teams' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Teams' })).toBeVisible();
}

/** the 'Create new team' dialog, opened from a button ('Add team' on /teams, 'Add Team' on an organization's Teams tab) */
export async function openCreateTeam(page: Page, button: string) {
  await page.getByRole('button', { name: button, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Create new team' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/**
 * Makes a member of an organization its administrator for `slugs` (docs/adr/0011): organization
 * permissions with those system slugs, a role holding them, the role granted to the account.
 */
export async function grantSystemPermissionsThroughRest(request: APIRequestContext, organizationId: string, accountId: string, slugs: string[]): Promise<void> {
  const headers = { authorization: `Bearer ${await restToken(request)}` };
  const post = async (path: string, data: unknown) => {
    const answer = await request.post(path, { data, headers });
    expect(answer.status(), await answer.text()).toBeLessThan(300);
    return (await answer.json()).data as { id: string };
  };
  const permissions = [];
  for (const slug of slugs) permissions.push((await post('/api/v2/permission', { organization_id: organizationId, title: `Rollcall ${slug}`, slug, description: '' })).id);
  const role = await post(`/api/v2/organization/${organizationId}/role`, { title: `Administrator ${Date.now().toString(36)}`, slug: `administrator-${Date.now().toString(36)}`, description: '', permissions });
  await post(`/api/v2/organization/${organizationId}/account-role`, { account_id: accountId, role_id: role.id });
}

/** registers a door reader through REST v2 and issues its token (docs/readers.md); answers its id and token */
export async function registerReaderThroughRest(request: APIRequestContext, reader: { name: string; door: string; role: 'door' | 'enrollment' }): Promise<{ id: string; token: string }> {
  const headers = { authorization: `Bearer ${await restToken(request)}` };
  const registered = await request.post('/api/v2/readers', { data: reader, headers });
  expect(registered.status(), await registered.text()).toBe(201);
  const id = (await registered.json()).data.id as string;
  const issued = await request.post(`/api/v2/readers/${id}/token`, { headers });
  expect(issued.status(), await issued.text()).toBe(201);
  return { id, token: (await issued.json()).data.token as string };
}

/** a reader posts one scan with its own token, as the door agent does; answers the scan's acknowledgement */
export async function postScanAsReader(request: APIRequestContext, readerToken: string, scan: { card_uid: string; sequence: number }): Promise<{ status: string; outcome?: string }> {
  const now = new Date().toISOString();
  const answer = await request.post('/api/v2/reader/scans', {
    data: { sent_at: now, scans: [{ card_uid: scan.card_uid, sequence: scan.sequence, device_time: now }] },
    headers: { authorization: `Bearer ${readerToken}` },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  return (await answer.json()).acks[0] as { status: string; outcome?: string };
}

/** a random card UID of 7 bytes (ISO 14443), upper-case hex as the server keeps it */
export function newCardUid(): string {
  return Array.from({ length: 7 }, () => Math.floor(Math.random() * 256).toString(16).padStart(2, '0')).join('').toUpperCase();
}
