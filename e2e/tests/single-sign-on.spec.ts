import { expect, test } from '@playwright/test';
import { createAccountThroughRest, expectAccessible, newAccount, restToken } from '../support/console';
import { relyingParty } from '../support/relying-party';


test('an account signs in to an application through Rollcall, consents, and the application sees its claims', async ({ page, request, baseURL }) => {
  const token = await restToken(request);
  const headers = { authorization: `Bearer ${token}` };
  const tag = Date.now().toString(36);
  // the provider's issuer is ROLLCALL_PUBLIC_URL + /oidc, which defaults to the URL the server prints (http://HOST:PORT)
  const issuer = `${baseURL!}/oidc`;

  // an application with a declared scope, a permission and a role holding it
  const created = await request.post('/api/v2/application', {
    data: { title: `Planner ${tag}`, description: 'Plans your week', scopes: [{ scope: 'calendar', description: 'See your calendar' }], client_type: 'confidential' },
    headers,
  });
  expect(created.status(), await created.text()).toBe(201);
  const application = (await created.json()).data;
  const clientId = application.app.id as string;
  const clientSecret = application.client_secret.client_secret as string;
  const permission = await request.post(`/api/v2/application/${clientId}/permission`, { data: { permission: { slug: 'calendar.write', description: 'Change your appointments' } }, headers });
  expect(permission.status(), await permission.text()).toBeLessThan(300);
  const permissionId = (await (await request.get(`/api/v2/application/${clientId}`, { headers })).json()).data.permissions[0].id as string;
  const role = await request.post(`/api/v2/application/${clientId}/role`, { data: { title: 'Planner', slug: 'planner', permissions: [permissionId] }, headers });
  expect(role.status(), await role.text()).toBe(201);

  const rp = await relyingParty(issuer, clientId, clientSecret, 'openid profile email roles calendar calendar.write', 'userinfo');
  try {
    const client = await request.put(`/api/v2/application/${clientId}/client`, {
      data: { client_type: 'confidential', redirect_uris: [`${rp.base}/callback`], grant_types: ['authorization_code'] },
      headers,
    });
    expect(client.status(), await client.text()).toBe(200);

    // an account holding the role, with a claim set on its 'Single Sign-on Claims' tab
    const account = newAccount('sso');
    const accountId = await createAccountThroughRest(request, account);
    expect((await request.post(`/api/v2/account/${accountId}/application-role`, { data: { role_id: (await role.json()).data.id }, headers })).status()).toBe(201);
    const claims = await request.put(`/api/v2/account/${accountId}/claims`, { data: { claims: { nickname: 'Kathy' } }, headers });
    expect(claims.status(), await claims.text()).toBe(200);

    // the relying party sends the browser to Rollcall's sign-in page
    await page.goto(`${rp.base}/login`);
    await expect(page.getByRole('heading', { name: `Sign in to Planner ${tag}` })).toBeVisible();
    await expectAccessible(page, 'single sign-on: sign-in');
    await page.getByRole('textbox', { name: 'Username' }).fill(account.username);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toContainText('Wrong username or password');
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();

    // the consent page: the application's words for each scope, and the permission's description
    await expect(page.getByRole('heading', { name: `Planner ${tag} asks for access` })).toBeVisible();
    const asked = page.getByRole('list', { name: 'It will be able to:' });
    await expect(asked).toContainText('See your calendar');
    await expect(asked).toContainText('Change your appointments');
    await expect(asked).toContainText('Your name and other basic facts about you');
    await expect(page.getByText(`Signed in as ${account.first_name} ${account.last_name} (${account.username})`)).toBeVisible();
    await expectAccessible(page, 'single sign-on: consent');
    await page.getByRole('button', { name: 'Allow' }).click();

    // back at the relying party, with the released claims
    await expect(page.getByRole('heading', { name: 'Signed in' })).toBeVisible();
    const released = JSON.parse((await page.locator('#claims').textContent()) ?? '{}') as Record<string, unknown>;
    expect(released).toMatchObject({ sub: accountId, preferred_username: account.username, email: account.email, nickname: 'Kathy', roles: ['planner'], permissions: ['calendar.write'] });

    // the consent is remembered: the next sign-in goes straight back
    await page.goto(`${rp.base}/login`);
    await expect(page.getByRole('heading', { name: 'Signed in' })).toBeVisible();
    const consents = await request.get(`/api/v2/account/${accountId}/consents`, { headers });
    expect((await consents.json()).data).toEqual([expect.objectContaining({ application_id: clientId, scopes: expect.arrayContaining(['openid', 'calendar', 'calendar.write']) })]);
  } finally {
    await rp.close();
  }
});
