import { expect, test } from '@playwright/test';
import { createAccountThroughRest, expectAccessible, newAccount, openCreateTeam, openTeams, pickOption, restToken, signIn } from '../support/console';

test('an administrator forms teams across and within organizations, renames one, associates and removes an account, and deletes a team', async ({ page, request }) => {
  const suffix = Date.now().toString(36);
  const token = await restToken(request);
  const organizationTitle = `Harbor ${suffix}`;
  const seeded = await request.post('/api/v2/organization', { data: { title: organizationTitle, description: 'Where the teams work' }, headers: { authorization: `Bearer ${token}` } });
  expect(seeded.status(), await seeded.text()).toBe(201);
  const organizationId = (await seeded.json()).data.id as string;
  const ada = newAccount('ada');
  const alan = newAccount('alan');
  const grace = newAccount('grace');
  const adaId = await createAccountThroughRest(request, { ...ada, organization: organizationId });
  await createAccountThroughRest(request, alan);
  await createAccountThroughRest(request, { ...grace, organization: organizationId });
  const crossTeam = `Night shift ${suffix}`;
  const harborTeam = `Dock crew ${suffix}`;
  const renamedTeam = `Dock crew North ${suffix}`;

  await signIn(page);
  await openTeams(page);
  await expect(page.getByText(/^Showing \d+-\d+ of \d+ records$/)).toBeVisible();
  await expectAccessible(page, 'teams list');

  // a multi-organization team with two accounts of different organizations
  const dialog = await openCreateTeam(page, 'Add team');
  await dialog.getByRole('textbox', { name: 'Title' }).fill(crossTeam);
  await expect(dialog.getByText(`${crossTeam.length}/255`)).toBeVisible();
  await expect(dialog.getByRole('combobox', { name: 'Organization' })).toBeVisible();
  await dialog.getByRole('switch', { name: 'Multi-organization team' }).check();
  await expect(dialog.getByRole('combobox', { name: 'Organization' })).toBeHidden();
  await pickOption(page, dialog.getByRole('combobox', { name: 'Accounts' }), ada.username, new RegExp(`^${ada.username} `));
  await pickOption(page, dialog.getByRole('combobox', { name: 'Accounts' }), alan.username, new RegExp(`^${alan.username} `));
  await expectAccessible(page, 'create team dialog');
  await dialog.getByRole('button', { name: 'Create team' }).click();
  await expect(page.getByText('Team created successfully')).toBeVisible();
  await expect(dialog).toBeHidden();

  await page.getByRole('searchbox', { name: 'Search' }).fill(suffix);
  await expect(page).toHaveURL(new RegExp(`search=${suffix}`));
  const teams = page.getByRole('table', { name: 'Teams' });
  const crossRow = teams.getByRole('row').filter({ hasText: crossTeam });
  await expect(crossRow).toContainText('Multi-organization');
  await expect(crossRow.getByRole('cell').nth(3)).toHaveText('2');

  // its associated accounts, each with a way to the profile
  await page.getByRole('button', { name: `Actions for ${crossTeam}` }).click();
  await page.getByRole('menuitem', { name: 'Associated accounts' }).click();
  const members = page.getByRole('dialog', { name: `Associated accounts of ${crossTeam}` });
  await expect(members.getByText(ada.username, { exact: true })).toBeVisible();
  await expect(members.getByText(alan.username, { exact: true })).toBeVisible();
  await expect(members.getByRole('link', { name: `Edit ${ada.first_name} ${ada.last_name}` })).toHaveAttribute('href', `/accounts/profile/${adaId}`);
  await expectAccessible(page, 'associated accounts dialog');
  await members.getByRole('button', { name: 'Close' }).click();
  await expect(members).toBeHidden();

  // a team of the organization, from its Teams tab: the organization is fixed, its members only
  await page.goto(`/organizations/details/${organizationId}`);
  await page.getByRole('tab', { name: 'Teams' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Teams' })).toBeVisible();
  const orgDialog = await openCreateTeam(page, 'Add Team');
  await expect(orgDialog.getByRole('combobox', { name: 'Organization' })).toHaveValue(organizationTitle);
  await expect(orgDialog.getByRole('combobox', { name: 'Organization' })).toBeDisabled();
  await expect(orgDialog.getByRole('switch', { name: 'Multi-organization team' })).toBeDisabled();
  await orgDialog.getByRole('textbox', { name: 'Title' }).fill(harborTeam);
  await pickOption(page, orgDialog.getByRole('combobox', { name: 'Accounts' }), alan.username, new RegExp(`^${alan.username} `));
  await orgDialog.getByRole('button', { name: 'Create team' }).click();
  await expect(orgDialog.getByText("This account does not belong to the team's organization")).toBeVisible();
  await orgDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(orgDialog).toBeHidden();
  await openCreateTeam(page, 'Add Team');
  await expect(orgDialog.getByRole('textbox', { name: 'Title' })).toHaveValue('');
  await orgDialog.getByRole('textbox', { name: 'Title' }).fill(harborTeam);
  await pickOption(page, orgDialog.getByRole('combobox', { name: 'Accounts' }), grace.username, new RegExp(`^${grace.username} `));
  await orgDialog.getByRole('button', { name: 'Create team' }).click();
  await expect(page.getByText('Team created successfully')).toBeVisible();
  const orgTeams = page.getByRole('table', { name: `Teams of ${organizationTitle}` });
  await expect(orgTeams.getByText(harborTeam)).toBeVisible();
  await expectAccessible(page, 'organization teams tab');

  // renamed in place
  await orgTeams.getByRole('button', { name: `Edit title of ${harborTeam}` }).click();
  await orgTeams.getByRole('textbox', { name: 'Title' }).fill(renamedTeam);
  await orgTeams.getByRole('textbox', { name: 'Title' }).press('Enter');
  await expect(page.getByText('Team title updated')).toBeVisible();
  await expect(orgTeams.getByText(renamedTeam)).toBeVisible();
  await expect(orgTeams.getByRole('textbox', { name: 'Title' })).toBeHidden();

  // Ada's Team association tab: a pick is required, a second association is refused without a call
  const addMemberCalls: string[] = [];
  page.on('request', (sent) => {
    if (sent.url().includes('teams.addMember')) addMemberCalls.push(sent.url());
  });
  await page.goto(`/accounts/profile/${adaId}`);
  await page.getByRole('tab', { name: 'Team association' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Team association' })).toBeVisible();
  const adaTeams = page.getByRole('table', { name: 'Team association' });
  await expect(adaTeams.getByText(crossTeam)).toBeVisible();
  await expectAccessible(page, 'team association tab');
  await page.getByRole('button', { name: 'Add Team' }).click();
  const associate = page.getByRole('dialog', { name: 'New team association' });
  await associate.getByRole('button', { name: 'Associate' }).click();
  await expect(associate.getByText('You must pick a team!')).toBeVisible();
  await pickOption(page, associate.getByRole('combobox', { name: 'Team' }), crossTeam, crossTeam);
  await associate.getByRole('button', { name: 'Associate' }).click();
  await expect(associate.getByText('User already associated!')).toBeVisible();
  expect(addMemberCalls).toEqual([]);
  await expectAccessible(page, 'team association dialog');
  await pickOption(page, associate.getByRole('combobox', { name: 'Team' }), renamedTeam, renamedTeam);
  await associate.getByRole('button', { name: 'Associate' }).click();
  await expect(page.getByText(`Account added to the team ${renamedTeam}`)).toBeVisible();
  await expect(associate).toBeHidden();
  expect(addMemberCalls).toHaveLength(1);
  await expect(adaTeams.getByText(renamedTeam)).toBeVisible();

  // and leaves it again
  await adaTeams.getByRole('button', { name: `Actions for ${renamedTeam}` }).click();
  await page.getByRole('menuitem', { name: 'Leave team' }).click();
  await expect(page.getByText(`Account has left the team ${renamedTeam}`)).toBeVisible();
  await expect(adaTeams.getByText(renamedTeam)).toBeHidden();
  await expect(adaTeams.getByText(crossTeam)).toBeVisible();

  // the multi-organization team is deleted after a confirmation
  await openTeams(page);
  await page.getByRole('searchbox', { name: 'Search' }).fill(suffix);
  await page.getByRole('button', { name: `Actions for ${crossTeam}` }).click();
  await page.getByRole('menuitem', { name: 'Delete team' }).click();
  const confirm = page.getByRole('dialog', { name: `Delete ${crossTeam}?` });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText(`Team ${crossTeam} deleted`)).toBeVisible();
  await expect(teams.getByText(crossTeam)).toBeHidden();
  await expect(teams.getByText(renamedTeam)).toBeVisible();
});

test("a team's details page: reached from its row, its title renamed in place, members added and removed (paged), its history, a breadcrumb back", async ({ page, request }) => {
  const suffix = Date.now().toString(36);
  const token = await restToken(request);
  const headers = { authorization: `Bearer ${token}` };
  const organizationTitle = `Quay ${suffix}`;
  const seeded = await request.post('/api/v2/organization', { data: { title: organizationTitle, description: 'Where the crews work' }, headers });
  expect(seeded.status(), await seeded.text()).toBe(201);
  const organizationId = (await seeded.json()).data.id as string;
  const ada = newAccount('ada');
  const grace = newAccount('grace');
  const adaId = await createAccountThroughRest(request, { ...ada, organization: organizationId });
  const graceId = await createAccountThroughRest(request, { ...grace, organization: organizationId });
  const title = `Crane crew ${suffix}`;
  const renamed = `Crane crew East ${suffix}`;
  const created = await request.post('/api/v2/team', { data: { title, description: 'Runs the cranes at night', interorg: false, organization: organizationId, accounts: [adaId] }, headers });
  expect(created.status(), await created.text()).toBe(201);
  const teamId = (await created.json()).data.id as string;

  await signIn(page);
  await openTeams(page);
  await page.getByRole('searchbox', { name: 'Search' }).fill(suffix);
  await page.getByRole('table', { name: 'Teams' }).getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(new RegExp(`/teams/details/${teamId}$`));
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(title));
  const details = page.getByRole('region', { name: 'Details' });
  await expect(details.getByText('Runs the cranes at night')).toBeVisible();
  await expect(details.getByRole('link', { name: organizationTitle })).toHaveAttribute('href', `/organizations/details/${organizationId}`);
  const members = page.getByRole('table', { name: /^Members of / });
  await expect(page.getByRole('table', { name: `Members of ${title}` })).toBeVisible();
  await expect(members.getByRole('link', { name: `${ada.first_name} ${ada.last_name}` })).toHaveAttribute('href', `/accounts/profile/${adaId}`);
  await expect(page.getByText('Showing 1-1 of 1 records')).toBeVisible();
  await expectAccessible(page, 'team details');

  // renamed in place, as on the list
  await details.getByRole('button', { name: `Edit title of ${title}` }).click();
  await details.getByRole('textbox', { name: 'Title' }).fill(renamed);
  await details.getByRole('textbox', { name: 'Title' }).press('Enter');
  await expect(page.getByText('Team title updated')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: renamed })).toBeVisible();

  // Grace joins; Ada, already a member, is refused by name and stays picked
  await page.getByRole('button', { name: 'Add members' }).click();
  const add = page.getByRole('dialog', { name: `Add members to ${renamed}` });
  await pickOption(page, add.getByRole('combobox', { name: 'Accounts' }), grace.username, new RegExp(`^${grace.username} `));
  await pickOption(page, add.getByRole('combobox', { name: 'Accounts' }), ada.username, new RegExp(`^${ada.username} `));
  await expectAccessible(page, 'add team members dialog');
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByText(`1 account added to the team ${renamed}`)).toBeVisible();
  await expect(add.getByText(new RegExp(`^${ada.username}: `))).toBeVisible();
  await add.getByRole('button', { name: 'Cancel' }).click();
  await expect(add).toBeHidden();
  await expect(members.getByRole('link', { name: `${grace.first_name} ${grace.last_name}` })).toHaveAttribute('href', `/accounts/profile/${graceId}`);
  await expect(page.getByText('Showing 1-2 of 2 records')).toBeVisible();

  // Ada leaves after a confirmation
  await members.getByRole('button', { name: `Actions for ${ada.first_name} ${ada.last_name}` }).click();
  await page.getByRole('menuitem', { name: 'Remove from team' }).click();
  const confirm = page.getByRole('dialog', { name: `Remove ${ada.first_name} ${ada.last_name} from the team?` });
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText(`${ada.first_name} ${ada.last_name} removed from the team ${renamed}`)).toBeVisible();
  await expect(members.getByRole('link', { name: `${ada.first_name} ${ada.last_name}` })).toBeHidden();

  // its history tells it in sentences, newest first
  const history = page.getByRole('list', { name: 'Events, newest first' });
  await expect(history.getByTestId('history-entry').first()).toContainText(`${ada.username} removed from team ${renamed} by admin`);
  await expect(history.getByTestId('history-entry').nth(1)).toContainText(`${grace.username} added to team ${renamed} by admin`);
  await expect(history.getByTestId('history-entry').nth(2)).toContainText(`Team renamed from ${title} to ${renamed} by admin`);

  // the breadcrumb leads back to the list
  await page.getByRole('navigation', { name: 'You are here' }).getByRole('link', { name: 'Teams' }).click();
  await expect(page).toHaveURL(/\/teams(\?|$)/);
  await expect(page.getByRole('heading', { level: 1, name: 'Teams' })).toBeVisible();
});
