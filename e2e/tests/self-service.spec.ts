import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createAccountThroughRest, expectAccessible, newAccount, newCardUid, postScanAsReader, registerReaderThroughRest, restToken, signIn } from '../support/console';
import { relyingParty } from '../support/relying-party';

/**
 * A page of one's own (/me): an account that administers nothing lands there instead of a dead end,
 * sees its own attendance and signs out its other session; an administrator reaches it from the user menu.
 */

/** gives a card to an account through REST v2, as an administrator assigning an unknown card */
async function giveCard(request: APIRequestContext, accountId: string): Promise<string> {
  const uid = newCardUid();
  const answer = await request.post('/api/v2/scanner/unknown-cards/assign', { data: { card_uid: uid, account_id: accountId }, headers: { authorization: `Bearer ${await restToken(request)}` } });
  expect(answer.status(), await answer.text()).toBe(201);
  return uid;
}

/** signs in on the form as an account without a role: it lands on its own page */
async function signInToOwnPage(page: Page, account: { username: string; password: string }): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/me$/);
  await expect(page.getByRole('heading', { level: 1, name: 'My account' })).toBeVisible();
}

test('an ordinary account lands on its own page on a phone, sees its own attendance and cards, and signs out its other session', async ({ browser, request }) => {
  const tag = Date.now().toString(36);
  const employee = newAccount('employee');
  const accountId = await createAccountThroughRest(request, employee);
  const card = await giveCard(request, accountId);
  const door = await registerReaderThroughRest(request, { name: `Lobby ${tag}`, door: `Staff entrance ${tag}`, role: 'door' });
  expect((await postScanAsReader(request, door.token, { card_uid: card, sequence: 1 })).outcome).toBe('arrival');

  // a phone and a laptop, two sessions of the same account
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const laptop = await browser.newContext();
  const page = await phone.newPage();
  const other = await laptop.newPage();
  try {
    await signInToOwnPage(page, employee);
    await signInToOwnPage(other, employee);

    // its attendance: today's arrival, in its zone, and its card; no administration menu
    const totals = page.getByRole('list', { name: 'Time logged' });
    await expect(totals.getByRole('listitem').filter({ hasText: 'Today' })).toContainText('1 arrival');
    await expect(page.getByText('Times in UTC')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Arrivals and departures' }).getByRole('cell', { name: 'Still in' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'My cards' }).getByText(card)).toBeVisible();
    await expectAccessible(page, 'own attendance on a phone');

    // its profile, with the zones it may pick, though it may read no other account
    await page.getByRole('tab', { name: 'Profile' }).click();
    await expect(page.getByRole('heading', { name: 'Personal information' })).toBeVisible();
    await page.getByLabel('Time zone').fill('Europe/Ber');
    await page.getByRole('option', { name: 'Europe/Berlin' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Your profile was saved')).toBeVisible();
    await expectAccessible(page, 'own profile on a phone');

    // its sessions: this one and the laptop's; the laptop's is signed out
    await page.getByRole('tab', { name: 'Sessions' }).click();
    const sessions = page.getByRole('region', { name: 'Where you are signed in' });
    await expect(sessions.getByRole('listitem')).toHaveCount(2);
    await expect(sessions.getByRole('listitem').filter({ hasText: 'This session' })).toHaveCount(1);
    await expect(sessions.getByRole('listitem').filter({ hasText: 'This session' }).getByRole('button', { name: /^Sign out/ })).toHaveCount(0);
    await expectAccessible(page, 'own sessions on a phone');
    await sessions.getByRole('listitem').filter({ hasNotText: 'This session' }).getByRole('button', { name: /^Sign out/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Sign out this session?' });
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('Session signed out')).toBeVisible();
    await expect(sessions.getByRole('listitem')).toHaveCount(1);

    // the laptop's next call is refused: it is back at the sign-in form
    await other.reload();
    await expect(other.getByRole('button', { name: 'Sign in' })).toBeVisible();
    // and the phone's session lives on
    await page.reload();
    await expect(page.getByRole('tab', { name: 'Sessions', selected: true })).toBeVisible();

    // the same page in German
    await page.getByRole('button', { name: 'DE', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Mein Konto' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Sitzungen' })).toBeVisible();
    await expectAccessible(page, 'own sessions in German');
    await page.getByRole('button', { name: 'EN', exact: true }).click();
  } finally {
    await phone.close();
    await laptop.close();
  }
});

test('an administrator reaches its own page from the user menu, changes its profile, and finds its password and second factors under Security', async ({ page }) => {
  await signIn(page);
  await page.getByRole('button', { name: /User menu of/ }).click();
  await page.getByRole('menuitem', { name: 'My account' }).click();
  await expect(page).toHaveURL(/\/me$/);
  await expect(page.getByRole('heading', { level: 1, name: 'My account' })).toBeVisible();
  // an administrator holding tokens:read sees its own tokens too
  await expect(page.getByRole('tab', { name: 'Access tokens' })).toBeVisible();

  await page.getByRole('tab', { name: 'Profile' }).click();
  const nickname = `Boss ${Date.now().toString(36)}`;
  await page.getByLabel('Nickname').fill(nickname);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Your profile was saved')).toBeVisible();
  await expectAccessible(page, 'own profile');

  // the password change names what is wrong under the field
  await page.getByRole('tab', { name: 'Security' }).click();
  // the second factors' panel sits beside the password (placed by the shell: features/me/security-slot.ts)
  await expect(page.getByRole('region', { name: 'Second factors' })).toBeVisible();
  await page.getByLabel('Current password').fill('not the password');
  await page.getByLabel('New password').fill('a brand new secret 2027');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByLabel('Current password')).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, 'own password change');
});

test('an account sees the application it signed in to through Rollcall, what it may see, and revokes it', async ({ page, request, baseURL }) => {
  const headers = { authorization: `Bearer ${await restToken(request)}` };
  const tag = Date.now().toString(36);
  const created = await request.post('/api/v2/application', { data: { title: `Wiki ${tag}`, description: 'The team wiki', client_type: 'confidential' }, headers });
  expect(created.status(), await created.text()).toBe(201);
  const application = (await created.json()).data;
  const clientId = application.app.id as string;
  const rp = await relyingParty(`${baseURL!}/oidc`, clientId, application.client_secret.client_secret as string);
  try {
    const client = await request.put(`/api/v2/application/${clientId}/client`, { data: { client_type: 'confidential', redirect_uris: [`${rp.base}/callback`], grant_types: ['authorization_code'] }, headers });
    expect(client.status(), await client.text()).toBe(200);
    const employee = newAccount('connected');
    await createAccountThroughRest(request, employee);

    // the application sends the browser to Rollcall; the account signs in and allows it
    await page.goto(`${rp.base}/login`);
    await page.getByRole('textbox', { name: 'Username' }).fill(employee.username);
    await page.getByLabel('Password').fill(employee.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Allow' }).click();
    await expect(page.getByRole('heading', { name: 'Signed in' })).toBeVisible();

    // on its own page: the application, what it may see, and among the sessions
    await signInToOwnPage(page, employee);
    await page.getByRole('tab', { name: 'Applications' }).click();
    const connected = page.getByRole('region', { name: 'Connected applications' }).getByRole('listitem').filter({ hasText: `Wiki ${tag}` });
    await expect(connected.getByText('Your profile')).toBeVisible();
    await expect(connected.getByText('Your e-mail address')).toBeVisible();
    await expectAccessible(page, 'connected applications');
    await page.getByRole('tab', { name: 'Sessions' }).click();
    await expect(page.getByRole('region', { name: 'Where you are signed in' }).getByRole('listitem').filter({ hasText: `Wiki ${tag}` })).toContainText('Application');

    await page.getByRole('tab', { name: 'Applications' }).click();
    await connected.getByRole('button', { name: `Revoke access of Wiki ${tag}` }).click();
    await page.getByRole('dialog', { name: `Revoke access of Wiki ${tag}?` }).getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('Consent revoked')).toBeVisible();
    await expect(page.getByText('You have not connected any application.')).toBeVisible();
    await page.getByRole('tab', { name: 'Sessions' }).click();
    await expect(page.getByRole('region', { name: 'Where you are signed in' }).getByRole('listitem').filter({ hasText: `Wiki ${tag}` })).toHaveCount(0);
  } finally {
    await rp.close();
  }
});
