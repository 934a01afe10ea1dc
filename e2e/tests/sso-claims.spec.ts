import { expect, test, type APIRequestContext } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { createAccountThroughRest, expectAccessible, newAccount, signIn } from '../support/console';

/** an application with two roles, made through REST v2 as another administrator would */
async function applicationWithRoles(request: APIRequestContext, title: string) {
  const token = (await (await request.post('/api/v2/admin/authenticate', { data: ADMIN })).json()).data.token as string;
  const headers = { authorization: `Bearer ${token}` };
  const created = await request.post('/api/v2/application', { data: { title }, headers });
  expect(created.status(), await created.text()).toBe(201);
  const id = (await created.json()).data.app.id as string;
  for (const [roleTitle, slug] of [
    ['Editor', 'editor'],
    ['Reviewer', 'reviewer'],
  ]) {
    const role = await request.post(`/api/v2/application/${id}/role`, { data: { title: roleTitle, slug }, headers });
    expect(role.status(), await role.text()).toBe(201);
  }
  return id;
}

test('an administrator sets an account’s single sign-on claims and its application roles', async ({ page, request }) => {
  // a long scenario with an accessibility scan of a large page, on a shared machine
  test.setTimeout(180_000);
  const tag = Date.now().toString(36);
  const account = newAccount('sso');
  const accountId = await createAccountThroughRest(request, account);
  const application = `Wiki ${tag}`;
  await applicationWithRoles(request, application);

  await signIn(page);
  await page.goto(`/accounts/profile/${accountId}`);
  await page.getByRole('tab', { name: 'Single Sign-on Claims' }).click();
  await expect(page).toHaveURL(/tab=ssoClaims/);

  // the accordion: one group per scope with its member count and description
  const profile = page.getByRole('button', { name: /Profile.*11 claims/ });
  await expect(profile).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('button', { name: /Address.*1 claim\b/ })).toHaveAttribute('aria-expanded', 'false');
  // the profile form above has a Nickname and a Website too: look inside the claims form
  const claimsForm = page.getByRole('form', { name: 'Single sign-on claims' });
  const nickname = claimsForm.getByRole('textbox', { name: 'Nickname' });
  await expect(nickname).toHaveValue('');
  // an empty field shows what the profile releases meanwhile
  await expect(claimsForm.getByRole('textbox', { name: 'Given name' })).toHaveAttribute('placeholder', account.first_name);
  await expect(claimsForm.getByText('Scope: profile').first()).toBeVisible();

  // a wrong form is answered under its field; the save sends only what changed
  const save = page.getByRole('button', { name: 'Save claims' });
  await expect(save).toBeDisabled();
  await claimsForm.getByRole('textbox', { name: 'Website' }).fill('ftp://ada.example.com');
  await nickname.fill('Countess');
  await expect(claimsForm.getByText('8/255')).toBeVisible();
  await save.click();
  await expect(claimsForm.getByText('Website must be an http or https address')).toBeVisible();
  await claimsForm.getByRole('textbox', { name: 'Website' }).fill('https://ada.example.com');
  // the phone group is closed: open it and set the number
  await page.getByRole('button', { name: /Phone.*1 claim\b/ }).click();
  await claimsForm.getByRole('textbox', { name: 'Phone number' }).fill('+44 20 7946 0000');
  const saved = page.waitForRequest((sent) => sent.url().includes('ssoClaims.set'));
  await save.click();
  const body = (await saved).postDataJSON() as Record<string, { json?: { claims: Record<string, unknown> } } | { claims: Record<string, unknown> }>;
  const sentClaims = JSON.stringify(body);
  expect(sentClaims).toContain('"nickname":"Countess"');
  expect(sentClaims).not.toContain('given_name');
  await expect(page.getByText('Single sign-on claims saved')).toBeVisible();
  await expect(save).toBeDisabled();
  await page.screenshot({ path: '/tmp/h4-pw/sso-claims-tab.png', fullPage: true });
  await expectAccessible(page, 'claims tab');

  // kept after a reload
  await page.reload();
  await expect(claimsForm.getByRole('textbox', { name: 'Nickname' })).toHaveValue('Countess');
  await expect(claimsForm.getByRole('textbox', { name: 'Website' })).toHaveValue('https://ada.example.com');

  // the application roles: switch one on, reload, it stays on; then off again
  const roles = page.getByRole('group', { name: `Roles in ${application}` });
  const editor = roles.getByRole('switch', { name: 'editor' });
  await expect(editor).not.toBeChecked();
  await editor.check();
  await expect(page.getByText('Role added to account')).toBeVisible();
  await expect(editor).toBeChecked();
  await expect(editor).toBeEnabled();
  await page.reload();
  await expect(page.getByRole('group', { name: `Roles in ${application}` }).getByRole('switch', { name: 'editor' })).toBeChecked();
  await expect(page.getByRole('group', { name: `Roles in ${application}` }).getByRole('switch', { name: 'reviewer' })).not.toBeChecked();
  await page.screenshot({ path: '/tmp/h4-pw/sso-claims-roles.png', fullPage: true });
  await page.getByRole('group', { name: `Roles in ${application}` }).getByRole('switch', { name: 'editor' }).uncheck();
  await expect(page.getByText('Role removed from account')).toBeVisible();

  // the API agrees
  const token = (await (await request.post('/api/v2/admin/authenticate', { data: ADMIN })).json()).data.token as string;
  const claims = await request.get(`/api/v1/account/${accountId}/claims`, { headers: { authorization: `Bearer ${token}` } });
  const phone = ((await claims.json()) as Array<{ scope: string; members: Array<{ claim: string; val: { value: string | null } }> }>).find((group) => group.scope === 'phone');
  expect(phone?.members[0].val.value).toBe('+44 20 7946 0000');
});
