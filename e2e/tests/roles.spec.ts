import { expect, test, type Page } from '@playwright/test';
import {
  addMemberThroughRest,
  createAccountThroughRest,
  createOrganizationThroughRest,
  expectAccessible,
  newAccount,
  openOrganizationSection,
  signIn,
} from '../support/console';

/** the notice bar's message (by text: an open dialog hides the rest of the page from the accessibility tree) */
const notice = (page: Page, text: string) => page.locator('.MuiSnackbarContent-message').getByText(text, { exact: true });

test('an administrator builds permissions and roles, grants a role to a member and takes it back from the account', async ({ page, request }) => {
  test.setTimeout(120_000); // one long scenario across three screens
  const suffix = Date.now().toString(36);
  const organization = `Observatory ${suffix}`;
  const other = `Planetarium ${suffix}`;
  const vera = newAccount('vera');
  const veraName = `${vera.first_name} ${vera.last_name}`;
  const veraId = await createAccountThroughRest(request, vera);
  const organizationId = await createOrganizationThroughRest(request, organization);
  const otherId = await createOrganizationThroughRest(request, other);
  await addMemberThroughRest(request, organizationId, veraId);
  await addMemberThroughRest(request, otherId, veraId);

  await signIn(page);
  await page.goto(`/organizations/details/${organizationId}`);
  await expect(page.getByRole('heading', { level: 2, name: organization })).toBeVisible();
  // the spec's order of the tabs
  await expect(page.getByRole('tab')).toContainText(['Sub-organizations', 'Details', 'Members', 'Permissions', 'Roles']);

  // --- Permissions: two created through 'Create new permission'
  await openOrganizationSection(page, 'Permissions');
  await expect(page).toHaveURL(/tab=permissions/);
  const permissions = page.getByRole('table', { name: `Permissions of ${organization}` });
  await expect(permissions.getByText('No permissions yet')).toBeVisible();
  await expectAccessible(page, 'permissions tab');
  const permissionDialog = page.getByRole('dialog', { name: 'Create new permission' });
  const createPermission = async (title: string, slug: string, description = '') => {
    await page.getByRole('button', { name: 'Add permission' }).click();
    await permissionDialog.getByRole('textbox', { name: 'Title' }).fill(title);
    await permissionDialog.getByRole('textbox', { name: 'Slug' }).fill(slug);
    if (description) await permissionDialog.getByRole('textbox', { name: 'Description' }).fill(description);
    await permissionDialog.getByRole('button', { name: 'Create', exact: true }).click();
  };
  await page.getByRole('button', { name: 'Add permission' }).click();
  await expect(permissionDialog.getByText(/A short name used with OIDC\/OAuth2/)).toBeVisible();
  await expect(permissionDialog.getByText('Shown during authorization, if given')).toBeVisible();
  await permissionDialog.getByRole('textbox', { name: 'Title' }).fill('Read reports');
  await expect(permissionDialog.getByText('12/255')).toBeVisible();
  await expectAccessible(page, 'create permission dialog');
  await permissionDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(permissionDialog).toBeHidden();
  await createPermission('Read reports', 'reports:read', 'Read the observation reports');
  await expect(permissionDialog).toBeHidden();
  await createPermission('Write reports', 'reports:write');
  await expect(permissionDialog).toBeHidden();
  await expect(permissions.getByRole('row')).toHaveCount(3); // header + the two
  await expect(page.getByText('Showing 1-2 of 2 records')).toBeVisible();

  // a slug is unique within the organization: the server's answer under the field
  await createPermission('Read again', 'reports:read');
  const slugField = permissionDialog.getByRole('textbox', { name: 'Slug' });
  await expect(slugField).toHaveAttribute('aria-invalid', 'true');
  await expect(permissionDialog.getByText(/A short name used with OIDC\/OAuth2/)).toBeHidden();
  await expectAccessible(page, 'create permission dialog with an error');
  await slugField.fill('reports:read2');
  await expect(slugField).not.toHaveAttribute('aria-invalid', 'true');
  await permissionDialog.getByRole('button', { name: 'Cancel' }).click();

  // title and slug edited inline
  await permissions.getByRole('button', { name: 'Edit title of Write reports' }).click();
  await permissions.getByRole('textbox', { name: 'Title' }).fill('Edit reports');
  await permissions.getByRole('textbox', { name: 'Title' }).press('Enter');
  await expect(notice(page, 'Permission title updated')).toBeVisible();
  await expect(permissions.getByText('Edit reports', { exact: true })).toBeVisible();
  await permissions.getByRole('button', { name: 'Edit slug of Edit reports' }).click();
  const inlineSlug = permissions.getByRole('textbox', { name: 'Slug' });
  // taken: the error stays under the field, and Escape gives up
  await inlineSlug.fill('reports:read');
  await inlineSlug.press('Enter');
  await expect(inlineSlug).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, 'inline slug with an error');
  await inlineSlug.press('Escape');
  await expect(inlineSlug).toBeHidden();
  await expect(permissions.getByText('reports:write', { exact: true })).toBeVisible();
  await permissions.getByRole('button', { name: 'Edit slug of Edit reports' }).click();
  await inlineSlug.fill('reports:edit');
  await permissions.getByRole('button', { name: 'Save' }).click();
  await expect(notice(page, 'Permission slug updated')).toBeVisible();
  await expect(permissions.getByText('reports:edit', { exact: true })).toBeVisible();
  await expect(permissions.getByText('reports:write', { exact: true })).toBeHidden();

  // --- Roles: 'Create role for an organization' with a permission chosen
  await openOrganizationSection(page, 'Roles');
  const roles = page.getByRole('table', { name: `Roles of ${organization}` });
  await expect(roles.getByText('No roles yet')).toBeVisible();
  await expect(roles.getByRole('columnheader')).toHaveText(['ID', 'Expand', 'Title', 'Slug', 'Num. associations', 'Created at', 'Actions']);
  await expectAccessible(page, 'roles tab');
  await page.getByRole('button', { name: 'Add role' }).click();
  const roleDialog = page.getByRole('dialog', { name: 'Create role for an organization' });
  await expect(roleDialog.getByRole('heading', { name: 'Details' })).toBeVisible();
  const permissionChoices = roleDialog.getByRole('group', { name: 'Permissions' });
  await roleDialog.getByRole('textbox', { name: 'Title' }).fill('Report reader');
  await roleDialog.getByRole('textbox', { name: 'Slug' }).fill('report.reader');
  await expect(roleDialog.getByText('13/255')).toHaveCount(2); // counters on title and slug
  await roleDialog.getByRole('textbox', { name: 'Description' }).fill('Reads what the night shift wrote');
  await permissionChoices.getByRole('checkbox', { name: /reports:read/ }).check();
  await expectAccessible(page, 'create role dialog');
  await roleDialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(notice(page, 'Role created successfully')).toBeVisible();
  await expect(roleDialog).toBeHidden();

  // a second role may not take the same slug
  await page.getByRole('button', { name: 'Add role' }).click();
  await roleDialog.getByRole('textbox', { name: 'Title' }).fill('Another reader');
  await roleDialog.getByRole('textbox', { name: 'Slug' }).fill('report.reader');
  await roleDialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(roleDialog.getByRole('textbox', { name: 'Slug' })).toHaveAttribute('aria-invalid', 'true');
  await roleDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(roles.getByRole('row')).toHaveCount(2);

  // the expanded role: one switch per permission of the organization
  await roles.getByRole('button', { name: 'Permissions of Report reader' }).click();
  const rolePermissions = roles.getByRole('group', { name: 'Permissions of Report reader' });
  await expect(rolePermissions.getByRole('switch')).toHaveCount(2);
  await expect(rolePermissions.getByRole('switch', { name: 'reports:read' })).toBeChecked();
  await expect(rolePermissions.getByRole('switch', { name: 'reports:edit' })).not.toBeChecked();
  await expectAccessible(page, 'expanded role');
  await rolePermissions.getByRole('switch', { name: 'reports:edit' }).click();
  await expect(notice(page, 'Permission reports:edit enabled for the role')).toBeVisible();
  await expect(rolePermissions.getByRole('switch', { name: 'reports:edit' })).toBeEnabled();
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Roles' })).toHaveAttribute('aria-selected', 'true');
  await roles.getByRole('button', { name: 'Permissions of Report reader' }).click();
  await expect(rolePermissions.getByRole('switch', { name: 'reports:edit' })).toBeChecked();
  await rolePermissions.getByRole('switch', { name: 'reports:read' }).click();
  await expect(notice(page, 'Permission reports:read disabled for the role')).toBeVisible();
  await expect(rolePermissions.getByRole('switch', { name: 'reports:read' })).not.toBeChecked();
  await expect(rolePermissions.getByRole('switch', { name: 'reports:read' })).toBeEnabled();

  // role title and slug edited inline
  await roles.getByRole('button', { name: 'Edit title of Report reader' }).click();
  await roles.getByRole('textbox', { name: 'Title' }).fill('Report viewer');
  await roles.getByRole('textbox', { name: 'Title' }).press('Enter');
  await expect(notice(page, 'Role title updated')).toBeVisible();
  await roles.getByRole('button', { name: 'Edit slug of Report viewer' }).click();
  await roles.getByRole('textbox', { name: 'Slug' }).fill('report.viewer');
  await roles.getByRole('textbox', { name: 'Slug' }).press('Enter');
  await expect(notice(page, 'Role slug updated')).toBeVisible();
  await expect(roles.getByText('report.viewer', { exact: true })).toBeVisible();
  const roleRow = roles.getByRole('row').filter({ hasText: 'report.viewer' });
  await expect(roleRow.getByRole('cell').nth(4)).toHaveText('0');

  // --- Members: 'Manage roles' grants it
  await openOrganizationSection(page, 'Members');
  const members = page.getByRole('table', { name: `Members of ${organization}` });
  const veraRow = members.getByRole('row').filter({ hasText: vera.username });
  await expect(veraRow.getByText('No roles')).toBeVisible();
  await members.getByRole('button', { name: `Actions for ${veraName}` }).click();
  await page.getByRole('menuitem', { name: 'Manage roles' }).click();
  const manage = page.getByRole('dialog', { name: 'Manage account roles' });
  await expect(manage.getByText(`Roles of ${veraName} within ${organization}`)).toBeVisible();
  const veraRoles = manage.getByRole('group', { name: `Roles of ${veraName}` });
  await expect(veraRoles.getByRole('switch', { name: 'report.viewer' })).not.toBeChecked();
  await expect(veraRoles.getByText('Report viewer')).toBeVisible();
  await expectAccessible(page, 'manage roles dialog');
  await veraRoles.getByRole('switch', { name: 'report.viewer' }).click();
  await expect(notice(page, 'Role added to account')).toBeVisible();
  await expect(veraRoles.getByRole('switch', { name: 'report.viewer' })).toBeChecked();
  await manage.getByRole('button', { name: 'Close' }).click();
  await expect(manage).toBeHidden();
  await expect(veraRow.getByText('report.viewer', { exact: true })).toBeVisible();

  // the role counts her, and lists her among its associated accounts
  await openOrganizationSection(page, 'Roles');
  await expect(roleRow.getByRole('cell').nth(4)).toHaveText('1');
  await roles.getByRole('button', { name: 'Actions for Report viewer' }).click();
  await page.getByRole('menuitem', { name: 'Associated accounts' }).click();
  const associated = page.getByRole('dialog', { name: 'Associated accounts for role Report viewer' });
  await expect(associated.getByText(veraName)).toBeVisible();
  await expect(associated.getByText(vera.username, { exact: true })).toBeVisible();
  await expect(associated.getByRole('link', { name: `Edit ${veraName}` })).toHaveAttribute('href', `/accounts/profile/${veraId}`);
  await expectAccessible(page, 'associated accounts dialog');
  await associated.getByRole('button', { name: 'Close' }).click();
  // she holds 'reports:edit' through it
  await openOrganizationSection(page, 'Permissions');
  await permissions.getByRole('button', { name: 'Actions for Edit reports' }).click();
  await page.getByRole('menuitem', { name: 'Associated accounts' }).click();
  const permissionAccounts = page.getByRole('dialog', { name: 'Associated accounts for permission Edit reports' });
  await expect(permissionAccounts.getByText(veraName)).toBeVisible();
  await permissionAccounts.getByRole('button', { name: 'Close' }).click();

  // --- the account's 'Organization association': one row open at a time, the role switched off there
  await page.goto(`/accounts/profile/${veraId}?tab=organizations`);
  const associations = page.getByRole('table', { name: 'Organization association' });
  await expect(associations.getByRole('columnheader')).toHaveText(['Organization ID', 'Expand', 'Organization', 'Created at', 'Actions']);
  await associations.getByRole('button', { name: `Roles within ${other}` }).click();
  await expect(associations.getByRole('heading', { name: 'Associated roles within organization' })).toHaveCount(1);
  await expect(associations.getByText('This organization has no roles yet')).toBeVisible();
  const expandMine = associations.getByRole('button', { name: `Roles within ${organization}` });
  await expandMine.click();
  await expect(expandMine).toHaveAttribute('aria-expanded', 'true');
  await expect(associations.getByRole('button', { name: `Roles within ${other}` })).toHaveAttribute('aria-expanded', 'false');
  await expect(associations.getByRole('heading', { name: 'Associated roles within organization' })).toHaveCount(1);
  await expect(associations.getByText('This organization has no roles yet')).toBeHidden();
  const accountRoles = associations.getByRole('group', { name: `Roles within ${organization}` });
  const viewerSwitch = accountRoles.getByRole('switch', { name: 'report.viewer' });
  await expect(viewerSwitch).toBeChecked();
  await expect(accountRoles.getByText('Report viewer')).toBeVisible();
  await expectAccessible(page, 'expanded organization association');
  await viewerSwitch.click();
  await expect(notice(page, 'Role removed from account')).toBeVisible();
  await expect(viewerSwitch).not.toBeChecked();
  await expect(viewerSwitch).toBeEnabled();
  await viewerSwitch.click();
  await expect(notice(page, 'Role added to account')).toBeVisible();
  await expect(viewerSwitch).toBeChecked();
  await expect(viewerSwitch).toBeEnabled();

  // --- deletions, each after a confirmation
  await page.goto(`/organizations/details/${organizationId}?tab=permissions`);
  await permissions.getByRole('button', { name: 'Actions for Read reports' }).click();
  await page.getByRole('menuitem', { name: 'Delete permission' }).click();
  const deletePermission = page.getByRole('dialog', { name: 'Delete permission Read reports?' });
  await expect(deletePermission.getByText('Are you sure you want to delete this permission?')).toBeVisible();
  await expectAccessible(page, 'delete permission confirmation');
  await deletePermission.getByRole('button', { name: 'Confirm' }).click();
  await expect(notice(page, 'Permission deleted')).toBeVisible();
  await expect(permissions.getByRole('row')).toHaveCount(2);
  await expect(permissions.getByText('Read reports', { exact: true })).toBeHidden();

  await openOrganizationSection(page, 'Roles');
  await roles.getByRole('button', { name: 'Actions for Report viewer' }).click();
  await page.getByRole('menuitem', { name: 'Delete role' }).click();
  const deleteRole = page.getByRole('dialog', { name: 'Delete role Report viewer?' });
  await expect(deleteRole.getByText('Are you sure you want to delete this role?')).toBeVisible();
  await deleteRole.getByRole('button', { name: 'Confirm' }).click();
  await expect(notice(page, 'Role deleted successfully')).toBeVisible();
  await expect(roles.getByText('No roles yet')).toBeVisible();
  await openOrganizationSection(page, 'Members');
  await expect(veraRow.getByText('No roles')).toBeVisible();
});

test('the roles screens fit a phone-sized screen', async ({ browser, request }) => {
  const organizationId = await createOrganizationThroughRest(request, `Pocket roles ${Date.now().toString(36)}`);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await signIn(page);
  for (const tab of ['permissions', 'roles']) {
    await page.goto(`/organizations/details/${organizationId}?tab=${tab}`);
    await expect(page.getByRole('button', { name: tab === 'roles' ? 'Add role' : 'Add permission' })).toBeVisible();
    // nothing wider than the screen but the table's own scroll area
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page, `${tab} on a phone`);
  }
  await page.getByRole('button', { name: 'Add role' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create role for an organization' });
  await expect(dialog.getByText('This organization has no permissions yet')).toBeVisible();
  await expectAccessible(page, 'create role dialog on a phone');
  await context.close();
});

test('the protected administrator role of the first organization cannot be deleted', async ({ page }) => {
  await signIn(page);
  await page.goto('/organizations');
  await page.getByRole('searchbox', { name: 'Search' }).fill('Rollcall');
  await page.getByRole('table', { name: 'Organizations' }).getByRole('link', { name: 'Rollcall', exact: true }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Rollcall' })).toBeVisible();
  // the first administrator holds it: its chip on the Members tab
  await openOrganizationSection(page, 'Members');
  const adminRow = page.getByRole('table', { name: 'Members of Rollcall' }).getByRole('row').filter({ hasText: 'Rollcall Administrator' });
  await expect(adminRow.getByText('administrator', { exact: true })).toBeVisible();
  await openOrganizationSection(page, 'Roles');
  await page.getByRole('table', { name: 'Roles of Rollcall' }).getByRole('button', { name: 'Actions for Administrator' }).click();
  await expect(page.getByRole('menuitem', { name: /^Delete role/ })).toBeDisabled();
  await expect(page.getByRole('menuitem', { name: /^Delete role/ })).toContainText('Protected roles cannot be deleted');
  await expect(page.getByRole('menuitem', { name: 'Associated accounts' })).toBeEnabled();
  await expectAccessible(page, 'protected role menu');
});
