import { describe, expect, it } from 'vitest';
import { givenFor } from '../../test/given';
import type { Decider } from '../shared';
import {
  decideOrganizationAccess,
  emptyOrganizationAccess,
  evolveOrganizationAccess,
  type OrganizationAccessCommand,
  type OrganizationAccessEvent,
  type OrganizationAccessState,
} from './organization-access';

const organizationId = 'org-1';
const at = '2026-11-22T08:00:00.000Z';
const accessDecider: Decider<OrganizationAccessCommand, OrganizationAccessEvent, OrganizationAccessState> = {
  initialState: emptyOrganizationAccess,
  evolve: evolveOrganizationAccess,
  decide: (command, state) => decideOrganizationAccess(command, state, organizationId),
};
const given = givenFor(accessDecider);

const permission = (permissionId: string, slug: string, isProtected = false): OrganizationAccessEvent => ({
  type: 'PermissionCreated',
  data: { organizationId, permissionId, title: `Title ${slug}`, slug, description: '', isProtected, createdAt: at },
});
const role = (roleId: string, slug: string, permissionIds: string[] = [], isProtected = false): OrganizationAccessEvent => ({
  type: 'RoleCreated',
  data: { organizationId, roleId, title: `Title ${slug}`, slug, description: '', permissionIds, isProtected, createdAt: at },
});
const createPermission = (slug: string, permissionId = 'p-new'): OrganizationAccessCommand => ({ type: 'CreatePermission', data: { permissionId, title: 'Read invoices', slug, description: 'Shown in the consent form', isProtected: false, createdAt: at } });
const createRole = (slug: string, permissionIds: string[] = []): OrganizationAccessCommand => ({ type: 'CreateRole', data: { roleId: 'r-new', title: 'Accountant', slug, description: '', permissionIds, isProtected: false, createdAt: at } });

describe('organization permissions', () => {
  it('creates a permission with an OAuth2-scope-shaped slug', () =>
    given([])
      .when(createPermission('invoices:read'))
      .then([{ type: 'PermissionCreated', data: { organizationId, permissionId: 'p-new', title: 'Read invoices', slug: 'invoices:read', description: 'Shown in the consent form', isProtected: false, createdAt: at } }]));

  it('refuses slugs that are not scope tokens, and a slug taken in the organization', () => {
    given([]).when(createPermission('Invoices Read')).thenThrows('access.slug_invalid', 'slug');
    given([]).when(createPermission('')).thenThrows('access.slug_invalid', 'slug');
    given([]).when(createPermission('x'.repeat(256))).thenThrows('access.slug_invalid', 'slug');
    given([permission('p1', 'invoices:read')]).when(createPermission('invoices:read')).thenThrows('permission.slug_taken', 'slug');
  });

  it('renames title and slug, keeping the slug unique, and ignores a rename to the same value', () => {
    const start = [permission('p1', 'invoices:read'), permission('p2', 'invoices:write')];
    given(start).when({ type: 'ChangePermissionSlug', data: { permissionId: 'p1', slug: 'invoices:write', changedAt: at } }).thenThrows('permission.slug_taken', 'slug');
    given(start).when({ type: 'ChangePermissionSlug', data: { permissionId: 'p1', slug: 'invoices:read', changedAt: at } }).then([]);
    given(start)
      .when({ type: 'ChangePermissionTitle', data: { permissionId: 'p1', title: ' Invoices ', changedAt: at } })
      .then([{ type: 'PermissionTitleChanged', data: { organizationId, permissionId: 'p1', title: 'Invoices', changedAt: at } }]);
    given(start).when({ type: 'ChangePermissionTitle', data: { permissionId: 'nope', title: 'x', changedAt: at } }).thenThrows('permission.not_found');
  });

  it('deletes a permission unless it is protected, and the roles lose it', () => {
    given([permission('p1', 'admin', true)]).when({ type: 'DeletePermission', data: { permissionId: 'p1', deletedAt: at } }).thenThrows('permission.protected');
    given([permission('p1', 'invoices:read'), role('r1', 'accountant', ['p1']), { type: 'PermissionDeleted', data: { organizationId, permissionId: 'p1', slug: 'invoices:read', deletedAt: at } }])
      .when({ type: 'RevokePermissionFromRole', data: { roleId: 'r1', permissionId: 'p1', at } })
      .then([]);
  });
});

describe('organization roles', () => {
  it('creates a role holding permissions of this organization only', () => {
    given([permission('p1', 'invoices:read')])
      .when(createRole('accountant', ['p1', 'p1']))
      .then([{ type: 'RoleCreated', data: { organizationId, roleId: 'r-new', title: 'Accountant', slug: 'accountant', description: '', permissionIds: ['p1'], isProtected: false, createdAt: at } }]);
    given([]).when(createRole('accountant', ['elsewhere'])).thenThrows('permission.not_found', 'permissions');
  });

  it('keeps role slugs unique apart from permission slugs', () => {
    given([role('r1', 'accountant')]).when(createRole('accountant')).thenThrows('role.slug_taken', 'slug');
    given([permission('p1', 'accountant')]).when(createRole('accountant')).then([expect.objectContaining({ type: 'RoleCreated' })]);
  });

  it('toggles a permission on a role, idempotently', () => {
    const start = [permission('p1', 'invoices:read'), role('r1', 'accountant')];
    given(start).when({ type: 'GrantPermissionToRole', data: { roleId: 'r1', permissionId: 'p1', at } }).then([{ type: 'PermissionGrantedToRole', data: { organizationId, roleId: 'r1', permissionId: 'p1', at } }]);
    given([...start, { type: 'PermissionGrantedToRole', data: { organizationId, roleId: 'r1', permissionId: 'p1', at } }]).when({ type: 'GrantPermissionToRole', data: { roleId: 'r1', permissionId: 'p1', at } }).then([]);
    given(start).when({ type: 'RevokePermissionFromRole', data: { roleId: 'r1', permissionId: 'p1', at } }).then([]);
    given(start).when({ type: 'GrantPermissionToRole', data: { roleId: 'r1', permissionId: 'nope', at } }).thenThrows('permission.not_found');
  });

  it('deletes a role unless it is protected', () => {
    given([role('r1', 'owner', [], true)]).when({ type: 'DeleteRole', data: { roleId: 'r1', deletedAt: at } }).thenThrows('role.protected');
    given([role('r1', 'accountant')]).when({ type: 'DeleteRole', data: { roleId: 'r1', deletedAt: at } }).then([{ type: 'RoleDeleted', data: { organizationId, roleId: 'r1', slug: 'accountant', deletedAt: at } }]);
  });
});
