import { expect, test } from '@playwright/test';
import { addMemberThroughRest, createAccountThroughRest, createOrganizationThroughRest, expectAccessible, newAccount, restToken, signIn } from '../support/console';

test("an auditor reads an account's history, opens the event in the log and travels to before the change", async ({ page, request }) => {
  test.setTimeout(90_000);
  const suffix = Date.now().toString(36);
  const sales = `Sales ${suffix}`;
  const editor = `Editor ${suffix}`;
  const ada = newAccount('ada');
  const adaId = await createAccountThroughRest(request, ada);
  const salesId = await createOrganizationThroughRest(request, sales);
  await addMemberThroughRest(request, salesId, adaId);
  const headers = { authorization: `Bearer ${await restToken(request)}` };
  const role = await request.post(`/api/v2/organization/${salesId}/role`, { data: { title: editor, slug: `editor-${suffix}`, description: '', permissions: [] }, headers });
  expect(role.status(), await role.text()).toBe(201);
  const granted = await request.post(`/api/v2/organization/${salesId}/account-role`, { data: { account_id: adaId, role_id: (await role.json()).data.id }, headers });
  expect(granted.status(), await granted.text()).toBe(200);

  await signIn(page);
  await page.goto(`/accounts/profile/${adaId}?tab=history`);
  await expect(page.getByRole('tab', { name: 'History', selected: true })).toBeVisible();
  const entries = page.getByTestId('history-entry');
  const grant = entries.first();
  await expect(grant).toContainText(`Role ${editor} granted in ${sales} by admin`);
  await expect(entries.filter({ hasText: `${ada.username} joined ${sales}` })).toHaveCount(1);

  // the diff of the role change, in plain words
  await grant.getByRole('button', { name: 'Show what changed' }).click();
  const changes = grant.getByRole('table', { name: 'Fields this event changed' });
  await expect(changes.getByRole('row', { name: `roles by organization › ${sales} — ${editor}` })).toBeVisible();
  await expectAccessible(page, 'account history');

  // time travel to just before the grant: the account without the role
  await grant.getByRole('button', { name: 'Show as it was before this' }).click();
  const travel = page.getByTestId('time-travel');
  await expect(travel).toContainText(`As it was before: Role ${editor} granted in ${sales}`);
  const state = travel.getByRole('table', { name: 'Fields as they were' });
  await expect(state.getByRole('row', { name: `username ${ada.username}` })).toBeVisible();
  await expect(state.getByRole('row', { name: `organization ids ${sales}` })).toBeVisible();
  await expect(state.getByText(/roles by organization/)).toHaveCount(0);

  // and the same event in the event log
  await grant.getByRole('link', { name: 'Open in the event log' }).click();
  await expect(page).toHaveURL(/\/audit\/events\?/);
  const log = page.getByRole('table', { name: 'Events, newest first' });
  await expect(log.getByRole('row').nth(1)).toContainText('RoleGrantedToAccount');
  await expect(log.getByRole('row').nth(1)).toContainText(`account-${adaId}`);
});

test("an organization's and a team's history", async ({ page, request }) => {
  const suffix = Date.now().toString(36);
  const title = `Archive ${suffix}`;
  const organizationId = await createOrganizationThroughRest(request, title);
  const headers = { authorization: `Bearer ${await restToken(request)}` };
  const renamed = await request.patch(`/api/v2/organization/details/${organizationId}`, { data: { title: `${title} renamed`, description: 'now with a description' }, headers });
  expect(renamed.status(), await renamed.text()).toBe(200);

  await signIn(page);
  await page.goto(`/organizations/details/${organizationId}?tab=history`);
  const entries = page.getByTestId('history-entry');
  await expect(entries.first()).toContainText(`Organization details changed: title ${title} renamed by admin`);
  await entries.first().getByRole('button', { name: 'Show what changed' }).click();
  await expect(entries.first().getByRole('row', { name: `title ${title} ${title} renamed` })).toBeVisible();
  await expectAccessible(page, 'organization history');
  // an event that changed no field of the entity does not count 'changed fields'
  await expect(entries.filter({ hasText: `Organization ${title} created by admin` })).toHaveCount(1);
  await expect(page.getByText(/^0 fields changed$/)).toHaveCount(0);

  // in German every entry reads German: the sentence, the field, the actor
  await page.getByRole('button', { name: 'DE', exact: true }).click();
  await expect(entries.first()).toContainText(`Details der Organisation geändert: Titel ${title} renamed, durch admin`);
  await expect(entries.first().getByRole('row', { name: `Titel ${title} ${title} renamed` })).toBeVisible();
  await expect(entries.filter({ hasText: `Organisation ${title} angelegt, durch admin` })).toHaveCount(1);
  await expect(entries.filter({ hasText: / by |changed|created/ })).toHaveCount(0);
  await expectAccessible(page, 'organization history (de)');
});
