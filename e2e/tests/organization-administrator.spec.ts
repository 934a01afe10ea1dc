import { expect, test, type APIRequestContext } from '@playwright/test';
import { accountsTable, createAccountThroughRest, expectAccessible, fillAccount, grantSystemPermissionsThroughRest, newAccount, openCreateAccount, openOrganizations, pickOption, restToken, signIn } from '../support/console';

/** builds, as the super administrator over REST v2: Sales > Sales EMEA, and HR beside them; Sales' administrator and a plain member */
async function seedOrganizationAdministrator(request: APIRequestContext, suffix: string) {
  const headers = { authorization: `Bearer ${await restToken(request)}` };
  const post = async (path: string, data: unknown) => {
    const answer = await request.post(path, { data, headers });
    expect(answer.status(), await answer.text()).toBeLessThan(300);
    return (await answer.json()).data as { id: string };
  };
  const sales = await post('/api/v2/organization', { title: `Sales ${suffix}`, description: '' });
  const emea = await post('/api/v2/organization', { title: `Sales EMEA ${suffix}`, description: '', parent_id: sales.id });
  const hr = await post('/api/v2/organization', { title: `Human Resources ${suffix}`, description: '' });
  const administrator = newAccount('sara');
  const administratorId = await createAccountThroughRest(request, { ...administrator, organization: sales.id });
  await grantSystemPermissionsThroughRest(request, sales.id, administratorId, ['accounts:read', 'accounts:write', 'organizations:read', 'organizations:write', 'teams:read']);
  const emeaMember = newAccount('erik');
  await createAccountThroughRest(request, { ...emeaMember, organization: emea.id });
  const hrMember = newAccount('hanna');
  await createAccountThroughRest(request, { ...hrMember, organization: hr.id });
  const plain = newAccount('paul');
  await createAccountThroughRest(request, { ...plain, organization: sales.id });
  return { sales, emea, hr, administrator, emeaMember, hrMember, plain };
}

test('an organization administrator sees and manages only its subtree, and an account without a role lands on its own page', async ({ page, request }) => {
  const suffix = Date.now().toString(36);
  const seeded = await seedOrganizationAdministrator(request, suffix);

  await signIn(page, seeded.administrator);
  // the menu offers what its roles allow somewhere, nothing else
  const menu = page.getByRole('navigation');
  for (const entry of ['Accounts', 'Organizations', 'Teams']) await expect(menu.getByRole('link', { name: entry })).toBeVisible();
  for (const entry of ['Password policies', 'Access Tokens', 'Applications']) await expect(menu.getByRole('link', { name: entry })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Import CSV' })).toBeHidden();

  // accounts: those of Sales and Sales EMEA, not of Human Resources
  await page.getByRole('searchbox', { name: 'Search' }).fill(suffix);
  await expect(accountsTable(page).getByText(seeded.emeaMember.username, { exact: true })).toBeVisible();
  await expect(accountsTable(page).getByText(seeded.administrator.username, { exact: true })).toBeVisible();
  await expect(accountsTable(page).getByText(seeded.hrMember.username, { exact: true })).toBeHidden();

  // a new account joins one of its organizations, picked in the dialog
  const created = newAccount('nils');
  const dialog = await openCreateAccount(page);
  await pickOption(page, dialog.getByRole('combobox', { name: 'Organization' }), 'EMEA', `Sales EMEA ${suffix}`);
  await fillAccount(dialog, created);
  await expectAccessible(page, 'create account dialog of an organization administrator');
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByText('Account created successfully!')).toBeVisible();
  // on to the new account, then back to the list
  await expect(page.getByRole('heading', { level: 1, name: `${created.first_name} ${created.last_name}` })).toBeVisible();
  await page.getByRole('navigation', { name: 'You are here' }).getByRole('link', { name: 'Accounts' }).click();
  await page.getByRole('searchbox', { name: 'Search' }).fill(created.username);
  await expect(accountsTable(page).getByText(created.username, { exact: true })).toBeVisible();

  // organizations: its subtree only; another one's page answers as if it did not exist
  await openOrganizations(page);
  await page.getByRole('searchbox', { name: 'Search' }).fill(suffix);
  const organizations = page.getByRole('table', { name: 'Organizations' });
  // Sales as a title and as the parent of Sales EMEA
  await expect(organizations.getByRole('link', { name: `Sales ${suffix}`, exact: true })).toHaveCount(2);
  await expect(organizations.getByRole('link', { name: `Sales EMEA ${suffix}`, exact: true })).toBeVisible();
  await expect(organizations.getByText(`Human Resources ${suffix}`)).toBeHidden();
  await page.goto(`/organizations/details/${seeded.hr.id}`);
  await expect(page.getByText('The organization could not be found.')).toBeVisible();

  // an account whose roles grant nothing
  await page.getByRole('button', { name: /User menu of/ }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.getByLabel('Username').fill(seeded.plain.username);
  await page.getByLabel('Password').fill(seeded.plain.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // it administers nothing: it lands on its own page (e2e/tests/self-service.spec.ts), with no administration menu
  await expect(page).toHaveURL(/\/me$/);
  await expect(page.getByRole('heading', { name: 'My account', level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link')).toHaveCount(0);
  await page.getByRole('button', { name: /User menu of/ }).click();
  await expect(page.getByRole('menuitem', { name: 'Account settings' })).toHaveCount(0);
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});
