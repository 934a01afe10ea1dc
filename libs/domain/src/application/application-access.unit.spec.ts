import { describe, expect, it } from 'vitest';
import { givenFor } from '../../test/given';
import { fold, type Decider } from '../shared';
import {
  decideApplicationAccess,
  emptyApplicationAccess,
  evolveApplicationAccess,
  findRolePermissionLink,
  rolePermissionLinkId,
  type ApplicationAccessCommand,
  type ApplicationAccessEvent,
  type ApplicationAccessState,
  type RolePermissionLink,
} from './application-access';

const applicationId = 'app-1';
const at = '2026-11-22T08:00:00.000Z';
const accessDecider: Decider<ApplicationAccessCommand, ApplicationAccessEvent, ApplicationAccessState> = {
  initialState: emptyApplicationAccess,
  evolve: evolveApplicationAccess,
  decide: (command, state) => decideApplicationAccess(command, state, { applicationId, scopes: ['profile', 'reports'] }),
};
const given = givenFor(accessDecider);

const permission = (permissionId: string, slug: string, description = ''): ApplicationAccessEvent => ({
  type: 'ApplicationPermissionAdded',
  data: { applicationId, permissionId, slug, description, createdAt: at },
});
const role = (roleId: string, slug: string, permissions: RolePermissionLink[] = []): ApplicationAccessEvent => ({
  type: 'ApplicationRoleCreated',
  data: { applicationId, roleId, title: `Title ${slug}`, slug, description: '', permissions, createdAt: at },
});
const linked = (linkId: string, roleId: string, permissionId: string): ApplicationAccessEvent => ({ type: 'PermissionAddedToApplicationRole', data: { applicationId, linkId, roleId, permissionId, at } });
const unlinked = (linkId: string, roleId: string, permissionId: string): ApplicationAccessEvent => ({ type: 'PermissionRemovedFromApplicationRole', data: { applicationId, linkId, roleId, permissionId, at } });
const addPermission = (slug: string, description = 'Read your invoices'): ApplicationAccessCommand => ({ type: 'AddApplicationPermission', data: { permissionId: 'p-new', slug, description, createdAt: at } });
const createRole = (slug: string, permissions: RolePermissionLink[] = []): ApplicationAccessCommand => ({
  type: 'CreateApplicationRole',
  data: { roleId: 'r-new', title: ' Accountant ', slug, description: 'Books', permissions, createdAt: at },
});
const switchOn = (roleId: string, permissionId: string, linkId = 'l-new'): ApplicationAccessCommand => ({ type: 'AddPermissionToApplicationRole', data: { roleId, permissionId, linkId, at } });
const switchOff = (linkId: string): ApplicationAccessCommand => ({ type: 'RemovePermissionFromApplicationRole', data: { linkId, at } });

describe('application permissions', () => {
  it('adds a permission whose slug is a scope token and whose description the consent page shows', () =>
    given([])
      .when(addPermission(' invoices:read '))
      .then([{ type: 'ApplicationPermissionAdded', data: { applicationId, permissionId: 'p-new', slug: 'invoices:read', description: 'Read your invoices', createdAt: at } }]));

  it("refuses slugs that are not scope tokens, OpenID Connect's own scopes, and slugs taken in the application", () => {
    given([]).when(addPermission('Invoices Read')).thenThrows('access.slug_invalid', 'slug');
    given([]).when(addPermission('')).thenThrows('access.slug_invalid', 'slug');
    given([]).when(addPermission('x'.repeat(256))).thenThrows('access.slug_invalid', 'slug');
    for (const reserved of ['openid', 'email', 'offline_access', 'roles']) given([]).when(addPermission(reserved)).thenThrows('access.slug_invalid', 'slug');
    given([permission('p1', 'invoices:read')]).when(addPermission('invoices:read')).thenThrows('permission.slug_taken', 'slug');
    given([]).when(addPermission('reports')).thenThrows('permission.slug_taken', 'slug');
    given([]).when(addPermission('invoices:read', 'x'.repeat(2001))).thenThrows('access.description_invalid', 'description');
    given([permission('p-new', 'a')]).when(addPermission('b')).thenThrows('permission.exists');
  });

  it('saves a row (slug and description together), only when something differs, keeping the slug unique', () => {
    const start = [permission('p1', 'invoices:read', 'Read'), permission('p2', 'invoices:write')];
    const save = (slug: string, description: string): ApplicationAccessCommand => ({ type: 'ChangeApplicationPermission', data: { permissionId: 'p1', slug, description, changedAt: at } });
    given(start).when(save('invoices:read', 'Read')).then([]);
    given(start)
      .when(save('invoices:view', 'Read your invoices'))
      .then([{ type: 'ApplicationPermissionChanged', data: { applicationId, permissionId: 'p1', slug: 'invoices:view', description: 'Read your invoices', changedAt: at } }]);
    given(start).when(save('invoices:write', 'Read')).thenThrows('permission.slug_taken', 'slug');
    given(start).when({ type: 'ChangeApplicationPermission', data: { permissionId: 'nope', slug: 'x', description: '', changedAt: at } }).thenThrows('permission.not_found');
  });

  it('removes a permission, and every role loses its link', () => {
    const start = [permission('p1', 'invoices:read'), role('r1', 'accountant', [{ linkId: 'l1', permissionId: 'p1' }])];
    given(start)
      .when({ type: 'RemoveApplicationPermission', data: { permissionId: 'p1', removedAt: at } })
      .then([{ type: 'ApplicationPermissionRemoved', data: { applicationId, permissionId: 'p1', slug: 'invoices:read', removedAt: at } }]);
    const after = fold(accessDecider, [...start, { type: 'ApplicationPermissionRemoved', data: { applicationId, permissionId: 'p1', slug: 'invoices:read', removedAt: at } }]);
    expect(after.roles.r1.permissions).toEqual([]);
    expect(findRolePermissionLink(after, 'l1')).toBeNull();
    given([]).when({ type: 'RemoveApplicationPermission', data: { permissionId: 'p1', removedAt: at } }).thenThrows('permission.not_found');
  });
});

describe('application roles', () => {
  it('creates a role with the chosen permissions, each with its own relation id', () =>
    given([permission('p1', 'invoices:read'), permission('p2', 'invoices:write')])
      .when(
        createRole('accountant', [
          { linkId: 'l1', permissionId: 'p1' },
          { linkId: 'l2', permissionId: 'p2' },
          { linkId: 'l3', permissionId: 'p1' },
        ]),
      )
      .then([
        {
          type: 'ApplicationRoleCreated',
          data: {
            applicationId,
            roleId: 'r-new',
            title: 'Accountant',
            slug: 'accountant',
            description: 'Books',
            permissions: [
              { linkId: 'l1', permissionId: 'p1' },
              { linkId: 'l2', permissionId: 'p2' },
            ],
            createdAt: at,
          },
        },
      ]));

  it('refuses a bad title or slug, a slug taken by another role, and permissions of elsewhere', () => {
    given([]).when({ type: 'CreateApplicationRole', data: { roleId: 'r', title: '', slug: 'x', description: '', permissions: [], createdAt: at } }).thenThrows('access.title_invalid', 'title');
    given([]).when(createRole('Accountant')).thenThrows('access.slug_invalid', 'slug');
    given([role('r1', 'accountant')]).when(createRole('accountant')).thenThrows('role.slug_taken', 'slug');
    given([]).when(createRole('accountant', [{ linkId: 'l1', permissionId: 'elsewhere' }])).thenThrows('permission.not_found', 'permissions');
    given([role('r-new', 'other')]).when(createRole('accountant')).thenThrows('role.exists');
  });

  it('lets a role share its slug with a permission (they are told apart by kind)', () =>
    given([permission('p1', 'accountant')]).when(createRole('accountant')).then([expect.objectContaining({ type: 'ApplicationRoleCreated' })]));

  it("renames a role inline ('Update Title'), only when the title differs", () => {
    given([role('r1', 'accountant')])
      .when({ type: 'ChangeApplicationRoleTitle', data: { roleId: 'r1', title: ' Bookkeeper ', changedAt: at } })
      .then([{ type: 'ApplicationRoleTitleChanged', data: { applicationId, roleId: 'r1', title: 'Bookkeeper', changedAt: at } }]);
    given([role('r1', 'accountant')]).when({ type: 'ChangeApplicationRoleTitle', data: { roleId: 'r1', title: 'Title accountant', changedAt: at } }).then([]);
    given([role('r1', 'accountant')]).when({ type: 'ChangeApplicationRoleTitle', data: { roleId: 'r1', title: ' ', changedAt: at } }).thenThrows('access.title_invalid', 'title');
    given([]).when({ type: 'ChangeApplicationRoleTitle', data: { roleId: 'r1', title: 'x', changedAt: at } }).thenThrows('role.not_found');
  });

  it('deletes a role and its links; its slug is free again', () => {
    const start = [permission('p1', 'invoices:read'), role('r1', 'accountant', [{ linkId: 'l1', permissionId: 'p1' }])];
    const roleDeleted: ApplicationAccessEvent = { type: 'ApplicationRoleDeleted', data: { applicationId, roleId: 'r1', slug: 'accountant', deletedAt: at } };
    given(start).when({ type: 'DeleteApplicationRole', data: { roleId: 'r1', deletedAt: at } }).then([roleDeleted]);
    given([...start, roleDeleted]).when({ type: 'DeleteApplicationRole', data: { roleId: 'r1', deletedAt: at } }).thenThrows('role.not_found');
    given([...start, roleDeleted]).when(switchOff('l1')).then([]);
    given([...start, roleDeleted]).when(createRole('accountant')).then([expect.objectContaining({ type: 'ApplicationRoleCreated' })]);
  });
});

describe('role permission switches with relation ids', () => {
  const start = [permission('p1', 'invoices:read'), role('r1', 'accountant')];

  it('switches on with a new relation id, which switching off names', () => {
    given(start).when(switchOn('r1', 'p1', 'l1')).then([linked('l1', 'r1', 'p1')]);
    given([...start, linked('l1', 'r1', 'p1')]).when(switchOff('l1')).then([unlinked('l1', 'r1', 'p1')]);
  });

  it('is idempotent: on again changes nothing and the existing relation id is found; off twice changes nothing', () => {
    const on = [...start, linked('l1', 'r1', 'p1')];
    given(on).when(switchOn('r1', 'p1', 'l2')).then([]);
    expect(rolePermissionLinkId(fold(accessDecider, on), 'r1', 'p1')).toBe('l1');
    given([...on, unlinked('l1', 'r1', 'p1')]).when(switchOff('l1')).then([]);
    given(start).when(switchOff('never-existed')).then([]);
  });

  it('switches on again after off with a fresh relation id', () =>
    given([...start, linked('l1', 'r1', 'p1'), unlinked('l1', 'r1', 'p1')])
      .when(switchOn('r1', 'p1', 'l2'))
      .then([linked('l2', 'r1', 'p1')]));

  it('refuses unknown roles and permissions, and never reuses a live relation id', () => {
    given(start).when(switchOn('nope', 'p1')).thenThrows('role.not_found');
    given(start).when(switchOn('r1', 'nope')).thenThrows('permission.not_found');
    const withSecond = [...start, permission('p2', 'invoices:write'), linked('l1', 'r1', 'p1')];
    expect(() => accessDecider.decide(switchOn('r1', 'p2', 'l1'), fold(accessDecider, withSecond))).toThrow(/must be new/);
  });

  it('finds a relation by its id, with its role', () =>
    expect(findRolePermissionLink(fold(accessDecider, [...start, linked('l1', 'r1', 'p1')]), 'l1')).toEqual({ linkId: 'l1', roleId: 'r1', permissionId: 'p1' }));
});
