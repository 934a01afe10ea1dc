import { expect, test } from '@playwright/test';
import {
  addMemberThroughRest,
  createAccountThroughRest,
  createOrganizationThroughRest,
  createOrganization,
  expectAccessible,
  newAccount,
  openOrganizations,
  openOrganizationTab,
  organizationIdOf,
  pickOption,
  restToken,
  signIn,
} from '../support/console';

const SAME_DESTINATION = "Destination organization and the one you're deleting are the same. Pick another organization";

test('an administrator builds an organization tree, fills it with members and deletes its middle, moving what it held', async ({ page, request }) => {
  const suffix = Date.now().toString(36);
  const top = `Acme ${suffix}`;
  const middle = `Acme Research ${suffix}`;
  const bottom = `Acme Labs ${suffix}`;
  const harbor = `Harbor ${suffix}`;
  const ada = newAccount('ada');
  const alan = newAccount('alan');
  const adaId = await createAccountThroughRest(request, ada);
  const alanId = await createAccountThroughRest(request, alan);

  await signIn(page);
  await openOrganizations(page);
  await expect(page.getByText(/^Showing \d+-\d+ of \d+ records$/)).toBeVisible();
  await expectAccessible(page, 'organizations list');

  // two top-level organizations from the list; the dialog shows its hint and counter
  await page.getByRole('button', { name: 'Add organization' }).click();
  const createDialog = page.getByRole('dialog', { name: 'Create new organization' });
  await expect(createDialog.getByText('Organization title (name). Must be unique')).toBeVisible();
  await createDialog.getByRole('textbox', { name: 'Title' }).fill(top);
  await expect(createDialog.getByText(`${top.length}/255`)).toBeVisible();
  await expectAccessible(page, 'create organization dialog');
  await createDialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByText(`Organization ${top} created`)).toBeVisible();
  await createOrganization(page, 'Add organization', { title: harbor, description: 'Where moved things land' });

  // a title is unique: the server's answer appears under the field
  await page.getByRole('button', { name: 'Add organization' }).click();
  await createDialog.getByRole('textbox', { name: 'Title' }).fill(top.toUpperCase());
  await createDialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(createDialog.getByText('An organization with this title already exists')).toBeVisible();
  await expect(createDialog.getByRole('textbox', { name: 'Title' })).toHaveAttribute('aria-invalid', 'true');
  await expect(createDialog.getByText('Organization title (name). Must be unique')).toBeHidden();
  await createDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(createDialog).toBeHidden();

  // the search is debounced and kept in the URL
  await page.getByRole('searchbox', { name: 'Search' }).fill(suffix);
  await expect(page).toHaveURL(new RegExp(`search=${suffix}`));
  const table = page.getByRole('table', { name: 'Organizations' });
  await expect(table.getByRole('row')).toHaveCount(3); // header + the two
  await table.getByRole('link', { name: top }).click();
  await expect(page.getByRole('heading', { level: 2, name: top })).toBeVisible();
  const topId = organizationIdOf(page);

  // Add Suborg presets the parent; the middle organization, then its own sub-organization
  await page.getByRole('button', { name: 'Add Suborg' }).click();
  await expect(createDialog.getByRole('combobox', { name: 'Parent organization' })).toHaveValue(top);
  await createDialog.getByRole('textbox', { name: 'Title' }).fill(middle);
  await createDialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByText(`Organization ${middle} created`)).toBeVisible();
  const subOrganizations = page.getByRole('table', { name: `Sub-organizations of ${top}` });
  await expect(subOrganizations.getByRole('link', { name: middle })).toBeVisible();
  await expectAccessible(page, 'sub-organizations tab');
  await subOrganizations.getByRole('link', { name: middle }).click();
  await expect(page.getByRole('heading', { level: 2, name: middle })).toBeVisible();
  await expect(page.getByText('belongs to')).toBeVisible();
  await expect(page.getByRole('link', { name: top })).toHaveAttribute('href', `/organizations/details/${topId}`);
  const middleId = organizationIdOf(page);
  await createOrganization(page, 'Add Suborg', { title: bottom });
  await expect(page.getByRole('table', { name: `Sub-organizations of ${middle}` }).getByRole('link', { name: bottom })).toBeVisible();

  // the Details tab saves title and description
  await openOrganizationTab(page, 'Details');
  await expect(page).toHaveURL(/tab=details/);
  await expect(page.getByText('Organization title. Must be unique')).toBeVisible();
  await page.getByRole('textbox', { name: 'Description' }).fill('Long-range research');
  await page.getByRole('form', { name: 'Details' }).getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Details updated')).toBeVisible();
  await expectAccessible(page, 'details tab');

  // two members, picked by username
  await openOrganizationTab(page, 'Members');
  const addMember = page.getByRole('button', { name: 'Add a member' });
  await addMember.hover();
  await expect(page.getByRole('tooltip', { name: 'New member' })).toBeVisible();
  const memberDialog = page.getByRole('dialog', { name: 'New member' });
  for (const account of [ada, alan]) {
    await addMember.click();
    await pickOption(page, memberDialog.getByRole('combobox', { name: 'Account (username)' }), account.username, new RegExp(account.username));
    await memberDialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(memberDialog).toBeHidden();
  }
  const members = page.getByRole('table', { name: `Members of ${middle}` });
  await expect(members.getByRole('link', { name: `${ada.first_name} ${ada.last_name}` })).toBeVisible();
  await expect(members.getByRole('link', { name: `${alan.first_name} ${alan.last_name}` })).toBeVisible();
  await expect(members.getByText(ada.username, { exact: true })).toBeVisible();
  await expectAccessible(page, 'members tab');

  // a second association of the same account is refused by the server, under the picker
  await addMember.click();
  await pickOption(page, memberDialog.getByRole('combobox', { name: 'Account (username)' }), ada.username, new RegExp(ada.username));
  await memberDialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(memberDialog.getByText('Account and organization already associated!')).toBeVisible();
  await expectAccessible(page, 'add member dialog');
  await memberDialog.getByRole('button', { name: 'Cancel' }).click();

  // the account sees the organization on its 'Organization association' tab
  await page.goto(`/accounts/profile/${adaId}?tab=organizations`);
  await expect(page.getByRole('heading', { level: 2, name: 'Organization association' })).toBeVisible();
  const associations = page.getByRole('table', { name: 'Organization association' });
  await expect(associations.getByRole('link', { name: middle })).toBeVisible();
  await expectAccessible(page, 'organization association tab');
  // linking it again is refused without a call, for 4 seconds
  await page.getByRole('button', { name: 'Add Organization' }).click();
  const associationDialog = page.getByRole('dialog', { name: 'New organization association' });
  await pickOption(page, associationDialog.getByRole('combobox', { name: 'Organization' }), middle, middle);
  await associationDialog.getByRole('button', { name: 'Associate' }).click();
  await expect(associationDialog.getByText('Account and organization already associated!')).toBeVisible();
  await expectAccessible(page, 'association dialog');
  await expect(associationDialog.getByText('Account and organization already associated!')).toBeHidden({ timeout: 6_000 });
  await associationDialog.getByRole('button', { name: 'Cancel' }).click();

  // delete the middle organization: the organization itself cannot be the destination
  await associations.getByRole('button', { name: `Actions for ${middle}` }).click();
  await page.getByRole('menuitem', { name: 'Organization details' }).click();
  await expect(page.getByRole('heading', { level: 2, name: middle })).toBeVisible();
  await page.getByRole('button', { name: 'Delete organization' }).click();
  const deleteDialog = page.getByRole('dialog', { name: 'Delete organization' });
  const subChoices = deleteDialog.getByRole('radiogroup', { name: 'Sub-organizations' });
  const accountChoices = deleteDialog.getByRole('radiogroup', { name: 'Accounts' });
  await subChoices.getByRole('radio', { name: /^Move/ }).check();
  await accountChoices.getByRole('radio', { name: /^Move/ }).check();
  const subDestination = deleteDialog.getByRole('combobox', { name: 'Move the sub-organizations to' });
  const accountDestination = deleteDialog.getByRole('combobox', { name: 'Move the accounts to' });
  await deleteDialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(deleteDialog.getByText('Pick the organization to move the sub-organizations to')).toBeVisible();
  await pickOption(page, subDestination, middle, middle);
  await pickOption(page, accountDestination, middle, middle);
  await expect(deleteDialog.getByText(SAME_DESTINATION, { exact: true })).toBeVisible();
  await expect(deleteDialog.getByText(`${SAME_DESTINATION} for the accounts`)).toBeVisible();
  await expectAccessible(page, 'delete organization dialog');
  await deleteDialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(deleteDialog).toBeVisible(); // nothing was sent
  await pickOption(page, subDestination, harbor, harbor);
  await pickOption(page, accountDestination, harbor, harbor);
  await expect(deleteDialog.getByText(SAME_DESTINATION, { exact: false })).toBeHidden();
  await deleteDialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Organization removed')).toBeVisible();
  await expect(page).toHaveURL(/\/organizations$/);

  // on screen: Harbor holds the lowest organization and both accounts
  await page.getByRole('searchbox', { name: 'Search' }).fill(suffix);
  await expect(table.getByRole('link', { name: middle })).toBeHidden();
  await expect(table.getByRole('row', { name: new RegExp(bottom) }).getByRole('link', { name: harbor })).toBeVisible();
  await table.getByRole('link', { name: harbor, exact: true }).first().click();
  await expect(page.getByRole('heading', { level: 2, name: harbor })).toBeVisible();
  const harborId = organizationIdOf(page);
  await expect(page.getByRole('table', { name: `Sub-organizations of ${harbor}` }).getByRole('link', { name: bottom })).toBeVisible();
  await openOrganizationTab(page, 'Members');
  const harborMembers = page.getByRole('table', { name: `Members of ${harbor}` });
  await expect(harborMembers.getByRole('link', { name: `${ada.first_name} ${ada.last_name}` })).toBeVisible();
  await expect(harborMembers.getByRole('link', { name: `${alan.first_name} ${alan.last_name}` })).toBeVisible();

  // over REST, as another client sees it
  const headers = { authorization: `Bearer ${await restToken(request)}` };
  const subOrgs = await request.get(`/api/v2/organization/${harborId}/sub-orgs`, { headers });
  expect(subOrgs.status(), await subOrgs.text()).toBe(200);
  expect(((await subOrgs.json()).data.data as Array<{ title: string }>).map((row) => row.title)).toEqual([bottom]);
  const harborAll = await request.get(`/api/v2/organization/${harborId}/members/all`, { headers });
  expect(harborAll.status(), await harborAll.text()).toBe(200);
  const memberIds = ((await harborAll.json()).data as Array<{ id: string }>).map((row) => row.id).sort();
  expect(memberIds).toEqual([adaId, alanId].sort());
  const gone = await request.get(`/api/v2/organization/${middleId}`, { headers });
  expect(gone.status()).toBe(404);
  const topSubOrgs = await request.get(`/api/v2/organization/${topId}/sub-orgs`, { headers });
  expect((await topSubOrgs.json()).data.data).toEqual([]);
});

test('an account joins an organization from its own tab and leaves it again; members are removed after a confirmation', async ({ page, request }) => {
  const suffix = Date.now().toString(36);
  const team = `Orbit ${suffix}`;
  const grace = newAccount('grace');
  const graceId = await createAccountThroughRest(request, grace);

  await signIn(page);
  await openOrganizations(page);
  await createOrganization(page, 'Add organization', { title: team });

  await page.goto(`/accounts/profile/${graceId}`);
  await page.getByRole('tab', { name: 'Organizations' }).click();
  await expect(page).toHaveURL(/tab=organizations/);
  const addButton = page.getByRole('button', { name: 'Add Organization' });
  await addButton.hover();
  await expect(page.getByRole('tooltip', { name: 'New organization association' })).toBeVisible();
  await addButton.click();
  const dialog = page.getByRole('dialog', { name: 'New organization association' });
  await pickOption(page, dialog.getByRole('combobox', { name: 'Organization' }), team, team);
  await dialog.getByRole('button', { name: 'Associate' }).click();
  await expect(page.getByText(`Account ${grace.first_name} ${grace.last_name} added to organization ${team}`)).toBeVisible();
  const associations = page.getByRole('table', { name: 'Organization association' });
  await expect(associations.getByRole('link', { name: team })).toBeVisible();
  await expect(page.getByText('Showing 1-1 of 1 records')).toBeVisible();

  // leave it: the confirmation names the organization
  await associations.getByRole('button', { name: `Actions for ${team}` }).click();
  await page.getByRole('menuitem', { name: 'Leave organization' }).click();
  const confirm = page.getByRole('dialog', { name: `Leave ${team}?` });
  await expect(confirm.getByText('Are you sure you want to leave this organization?')).toBeVisible();
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText(`Account ${grace.first_name} ${grace.last_name} successfully deleted or removed from organization`)).toBeVisible();
  await expect(associations.getByRole('link', { name: team })).toBeHidden();

  // join again, then an administrator removes the member from the organization's Members tab
  await addButton.click();
  await pickOption(page, dialog.getByRole('combobox', { name: 'Organization' }), team, team);
  await dialog.getByRole('button', { name: 'Associate' }).click();
  await expect(associations.getByRole('link', { name: team })).toBeVisible();
  await associations.getByRole('link', { name: team }).click();
  await openOrganizationTab(page, 'Members');
  const members = page.getByRole('table', { name: `Members of ${team}` });
  const name = `${grace.first_name} ${grace.last_name}`;
  await members.getByRole('button', { name: `Actions for ${name}` }).click();
  await expect(page.getByRole('menuitem', { name: 'Account info' })).toHaveAttribute('href', `/accounts/profile/${graceId}`);
  await page.getByRole('menuitem', { name: 'Remove from organization' }).click();
  await page.getByRole('dialog', { name: `Remove ${name} from ${team}?` }).getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText(`Account ${name} successfully deleted or removed from organization`)).toBeVisible();
  await expect(members.getByRole('link', { name })).toBeHidden();
  await expect(page.getByText('No members')).toBeVisible();
});

test('the organization screens fit a phone-sized screen', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await signIn(page);
  await page.goto('/organizations');
  await expect(page.getByRole('heading', { level: 1, name: 'Organizations' })).toBeVisible();
  await createOrganization(page, 'Add organization', { title: `Pocket ${Date.now().toString(36)}` });
  // nothing wider than the screen but the table's own scroll area
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectAccessible(page, 'organizations on a phone');
  await context.close();
});

test('the protected first organization and its protected administrator cannot be deleted', async ({ page }) => {
  await signIn(page);
  await openOrganizations(page);
  await page.getByRole('searchbox', { name: 'Search' }).fill('Rollcall');
  await page.getByRole('table', { name: 'Organizations' }).getByRole('link', { name: 'Rollcall', exact: true }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Rollcall' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete organization' })).toBeDisabled();
  await openOrganizationTab(page, 'Members');
  await page.getByRole('button', { name: 'Actions for Rollcall Administrator' }).click();
  await expect(page.getByRole('menuitem', { name: /^Delete account/ })).toBeDisabled();
  await expect(page.getByRole('menuitem', { name: /^Remove from organization/ })).toBeEnabled();
  await expectAccessible(page, 'members row menu');
});

test("an administrator sets the organization's attendance time zone on its Details tab and clears it again", async ({ page, request }) => {
  const title = `Tokyo office ${Date.now().toString(36)}`;
  const organizationId = await createOrganizationThroughRest(request, title);
  const zoneThroughRest = async () => {
    const answer = await request.get(`/api/v2/organization/${organizationId}/time-zone`, { headers: { authorization: `Bearer ${await restToken(request)}` } });
    expect(answer.status()).toBe(200);
    return (await answer.json()).data.time_zone as string | null;
  };

  await signIn(page);
  await page.goto(`/organizations/details/${organizationId}`);
  await openOrganizationTab(page, 'Details');
  const panel = page.getByRole('form', { name: 'Attendance time zone' });
  const field = panel.getByRole('combobox', { name: 'Time zone' });
  await expect(panel.getByText('Empty: the parent organization\'s zone, else UTC')).toBeVisible();
  await expect(field).toHaveValue('');

  await pickOption(page, field, 'Asia/Tok', 'Asia/Tokyo');
  await panel.getByRole('button', { name: 'Save time zone' }).click();
  await expect(page.getByText('Time zone updated')).toBeVisible();
  expect(await zoneThroughRest()).toBe('Asia/Tokyo');
  await expectAccessible(page, 'organization time zone');

  // kept across a reload, and cleared with the field's own clear button
  await page.reload();
  await openOrganizationTab(page, 'Details');
  await expect(field).toHaveValue('Asia/Tokyo');
  await field.hover();
  await panel.getByRole('button', { name: 'Clear' }).click();
  await panel.getByRole('button', { name: 'Save time zone' }).click();
  await expect(page.getByText('Time zone updated')).toBeVisible();
  expect(await zoneThroughRest()).toBeNull();
});

test('deleting an organization asks only about what it holds', async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const empty = await createOrganizationThroughRest(request, `Empty ${tag}`);
  const staffed = await createOrganizationThroughRest(request, `Staffed ${tag}`);
  const memberId = await createAccountThroughRest(request, newAccount('staff'));
  await addMemberThroughRest(request, staffed, memberId);
  await signIn(page);

  await page.goto(`/organizations/details/${empty}`);
  await page.getByRole('button', { name: 'Delete organization' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete organization' });
  await expect(dialog).toContainText('It has no sub-organizations and no accounts: nothing else changes.');
  // its first sentence asks about nothing that is not there
  await expect(dialog).toContainText(`Delete Empty ${tag}?`);
  await expect(dialog).not.toContainText('Choose what becomes');
  await expect(dialog.getByRole('radiogroup')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await page.goto(`/organizations/details/${staffed}`);
  await page.getByRole('button', { name: 'Delete organization' }).click();
  await expect(dialog.getByRole('radiogroup', { name: 'Accounts' })).toBeVisible();
  await expect(dialog.getByRole('radiogroup', { name: 'Sub-organizations' })).toHaveCount(0);
  await expect(dialog).toContainText('Choose what becomes of its accounts.');
  await expect(dialog).not.toContainText('sub-organizations and');
  await expectAccessible(page, 'delete dialog with accounts only');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Organization removed')).toBeVisible();
});
