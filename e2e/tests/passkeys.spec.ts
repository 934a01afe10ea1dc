import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createAccountThroughRest, expectAccessible, newAccount, restToken } from '../support/console';

/**
 * Passkeys in Chromium (docs/adr/0029) with the DevTools protocol's virtual authenticator (a
 * platform authenticator that keeps discoverable credentials and verifies its user), so the
 * browser's own WebAuthn runs against the server's SimpleWebAuthn. A WebAuthn relying party id is
 * a host name: the console is opened at localhost (a secure context, like 127.0.0.1).
 */
const consoleAt = (_page: Page, path: string) => `http://localhost:${process.env.E2E_PORT ?? 3217}${path}`;

async function virtualAuthenticator(page: Page): Promise<{ credentials: () => Promise<unknown[]> }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials };
}

/** a password policy whose accounts may sign in with a passkey alone, made through REST */
async function passkeyPolicy(request: APIRequestContext): Promise<string> {
  const created = await request.post('/api/v2/policy', {
    data: { title: `Passkeys ${Date.now().toString(36)}`, min_length: 6, min_strength: 0, lockout: 10, lockout_duration: 60, passkey_sign_in: true },
    headers: { authorization: `Bearer ${await restToken(request)}` },
  });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()).data.id as string;
}

async function signInWithPassword(page: Page, account: { username: string; password: string }): Promise<void> {
  await page.goto(consoleAt(page, '/login'));
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** signs out the way a closed browser does: the session cookie gone, the in-memory token with the page */
async function forgetSession(page: Page): Promise<void> {
  await page.context().clearCookies();
  await page.goto(consoleAt(page, '/login'));
}

test('an account adds a named passkey, signs in with it as the second factor and alone where its policy allows, and removes it after confirming with it', async ({ page, request }) => {
  const authenticator = await virtualAuthenticator(page);
  const account = newAccount('lin');
  await createAccountThroughRest(request, { ...account, policy: true, policy_id: await passkeyPolicy(request) });

  // an ordinary account lands on its own page; Security holds the passkeys
  await signInWithPassword(page, account);
  await expect(page).toHaveURL(/\/me$/);
  await page.getByRole('tab', { name: 'Security' }).click();
  const passkeys = page.getByRole('region', { name: 'Passkeys' });
  await expect(passkeys.getByText('No passkey yet.')).toBeVisible();
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
  const add = page.getByRole('dialog', { name: 'Add a passkey' });
  await add.getByLabel('Name').fill('Work laptop');
  await expectAccessible(page, 'add a passkey');
  await add.getByRole('button', { name: 'Create passkey' }).click();
  // the first factor brings the recovery codes, shown once
  await expect(page.getByText('They are shown only now')).toBeVisible();
  // they stand in for any second factor, the passkeys too
  await expect(page.getByText('if you lose your authenticator app or your passkeys')).toBeVisible();
  const codes = await page.getByTestId('recovery-code').allTextContents();
  expect(codes).toHaveLength(10);
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await expect(passkeys.getByTestId('passkey')).toHaveCount(1);
  await expect(passkeys.getByTestId('passkey')).toContainText('Work laptop');
  await expect(passkeys.getByTestId('passkey')).toContainText('never used');
  expect(await authenticator.credentials()).toHaveLength(1);
  await expectAccessible(page, 'own passkeys');

  // rename it
  await passkeys.getByRole('button', { name: 'Actions for the passkey Work laptop' }).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename the passkey' });
  await rename.getByLabel('Name').fill('Laptop');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(passkeys.getByTestId('passkey')).toContainText('Laptop');

  // adding another factor beside it asks for a current one first (review R24 F3): a wrong code is refused, the passkey confirms
  await page.getByRole('button', { name: 'Enrol authenticator app' }).click();
  const confirmAdd = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(page.getByRole('img', { name: 'QR code of the authenticator app enrolment' })).toHaveCount(0);
  await confirmAdd.getByLabel('Current code').fill('000000');
  // adding takes nothing away: the button is the primary one, not the error colour of a removal
  await expect(confirmAdd.getByRole('button', { name: 'Confirm', exact: true })).toHaveClass(/MuiButton-colorPrimary/);
  await confirmAdd.getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect(confirmAdd.getByRole('alert')).toContainText('This code or passkey is not valid');
  await expectAccessible(page, 'confirm adding a factor');
  await confirmAdd.getByRole('button', { name: 'Confirm with a passkey' }).click();
  await expect(page.getByRole('img', { name: 'QR code of the authenticator app enrolment' })).toBeVisible();
  await page.getByRole('dialog', { name: 'Enrol an authenticator app' }).getByRole('button', { name: 'Cancel' }).click();

  // the password is followed by the passkey (the virtual authenticator answers the browser's dialog)
  await forgetSession(page);
  await signInWithPassword(page, account);
  await expect(page.getByRole('heading', { name: 'Second factor' })).toBeVisible();
  await expectAccessible(page, 'second factor step with a passkey');
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page).toHaveURL(/\/me$/);

  // the policy lets it sign in with the passkey alone: no username, no password (the button's name
  // holds no 'Sign in', which other scenarios look the password's button up by)
  await forgetSession(page);
  await page.getByRole('button', { name: 'Continue with a passkey' }).click();
  await expect(page).toHaveURL(/\/me$/);
  await page.getByRole('tab', { name: 'Security' }).click();
  await expect(passkeys.getByTestId('passkey')).not.toContainText('never used');

  // removing it asks for a current factor: a wrong code is refused, the passkey itself confirms
  await passkeys.getByRole('button', { name: 'Actions for the passkey Laptop' }).click();
  await page.getByRole('menuitem', { name: 'Remove' }).click();
  const remove = page.getByRole('dialog', { name: "Remove the passkey 'Laptop'?" });
  await remove.getByLabel('Current code').fill('000000');
  await expect(remove.getByRole('button', { name: 'Confirm', exact: true })).toHaveClass(/MuiButton-colorError/);
  await remove.getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect(remove.getByRole('alert')).toContainText('This code or passkey is not valid');
  await expectAccessible(page, 'confirm a removal');
  await remove.getByRole('button', { name: 'Confirm with a passkey' }).click();
  await expect(page.getByText('Passkey removed')).toBeVisible();
  await expect(passkeys.getByText('No passkey yet.')).toBeVisible();
});

test('the sign-in page and the passkeys in German and on a phone', async ({ page, request }) => {
  await virtualAuthenticator(page);
  await page.setViewportSize({ width: 390, height: 844 });
  const account = newAccount('mai');
  await createAccountThroughRest(request, { ...account, policy: true, policy_id: await passkeyPolicy(request) });
  await signInWithPassword(page, account);
  await expect(page).toHaveURL(/\/me$/);
  await page.getByRole('button', { name: 'DE', exact: true }).click();
  await page.getByRole('tab', { name: 'Sicherheit' }).click();
  const passkeys = page.getByRole('region', { name: 'Passkeys' });
  await passkeys.getByRole('button', { name: 'Passkey hinzufügen' }).click();
  await page.getByRole('dialog', { name: 'Passkey hinzufügen' }).getByLabel('Name').fill('Telefon');
  await page.getByRole('button', { name: 'Passkey erstellen' }).click();
  await page.getByRole('button', { name: /gespeichert/ }).click();
  await expect(passkeys.getByTestId('passkey')).toContainText('Telefon');
  await expectAccessible(page, 'passkeys in German on a phone');
  // no part of the page runs wider than the phone
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await forgetSession(page);
  await expect(page.getByRole('button', { name: 'Mit einem Passkey fortfahren' })).toBeVisible();
  await expectAccessible(page, 'sign-in with a passkey button in German on a phone');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
