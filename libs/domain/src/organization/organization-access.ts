import { DomainError, fieldError, type DomainEvent } from '../shared';

/**
 * An organization's permissions and roles (spec: 'Roles are defined per organization'; 'Permissions
 * and roles can be created, renamed (title or slug) and deleted'; 'A role holds many permissions').
 * They live in the organization's stream, so a slug is unique within the organization by the
 * stream's own optimistic concurrency: no reservation is needed.
 */
export interface OrganizationPermission {
  permissionId: string;
  title: string;
  slug: string;
  description: string;
  isProtected: boolean;
}

export interface OrganizationRole {
  roleId: string;
  title: string;
  slug: string;
  description: string;
  permissionIds: string[];
  isProtected: boolean;
}

export interface OrganizationAccessState {
  permissions: Record<string, OrganizationPermission>;
  roles: Record<string, OrganizationRole>;
}

export const emptyOrganizationAccess = (): OrganizationAccessState => ({ permissions: {}, roles: {} });

type WithOrganization<T> = T & { organizationId: string };
export type PermissionCreated = DomainEvent<'PermissionCreated', WithOrganization<OrganizationPermission & { createdAt: string }>>;
export type PermissionTitleChanged = DomainEvent<'PermissionTitleChanged', WithOrganization<{ permissionId: string; title: string; changedAt: string }>>;
export type PermissionSlugChanged = DomainEvent<'PermissionSlugChanged', WithOrganization<{ permissionId: string; slug: string; changedAt: string }>>;
/** also takes the permission out of every role that held it */
export type PermissionDeleted = DomainEvent<'PermissionDeleted', WithOrganization<{ permissionId: string; slug: string; deletedAt: string }>>;
export type RoleCreated = DomainEvent<'RoleCreated', WithOrganization<OrganizationRole & { createdAt: string }>>;
export type RoleTitleChanged = DomainEvent<'RoleTitleChanged', WithOrganization<{ roleId: string; title: string; changedAt: string }>>;
export type RoleSlugChanged = DomainEvent<'RoleSlugChanged', WithOrganization<{ roleId: string; slug: string; changedAt: string }>>;
/** accounts holding the role lose it (their read models follow this event) */
export type RoleDeleted = DomainEvent<'RoleDeleted', WithOrganization<{ roleId: string; slug: string; deletedAt: string }>>;
export type PermissionGrantedToRole = DomainEvent<'PermissionGrantedToRole', WithOrganization<{ roleId: string; permissionId: string; at: string }>>;
export type PermissionRevokedFromRole = DomainEvent<'PermissionRevokedFromRole', WithOrganization<{ roleId: string; permissionId: string; at: string }>>;

export type OrganizationAccessEvent =
  | PermissionCreated
  | PermissionTitleChanged
  | PermissionSlugChanged
  | PermissionDeleted
  | RoleCreated
  | RoleTitleChanged
  | RoleSlugChanged
  | RoleDeleted
  | PermissionGrantedToRole
  | PermissionRevokedFromRole;
export const ORGANIZATION_ACCESS_EVENT_TYPES: OrganizationAccessEvent['type'][] = [
  'PermissionCreated',
  'PermissionTitleChanged',
  'PermissionSlugChanged',
  'PermissionDeleted',
  'RoleCreated',
  'RoleTitleChanged',
  'RoleSlugChanged',
  'RoleDeleted',
  'PermissionGrantedToRole',
  'PermissionRevokedFromRole',
];

export type CreatePermission = { type: 'CreatePermission'; data: OrganizationPermission & { createdAt: string } };
export type ChangePermissionTitle = { type: 'ChangePermissionTitle'; data: { permissionId: string; title: string; changedAt: string } };
export type ChangePermissionSlug = { type: 'ChangePermissionSlug'; data: { permissionId: string; slug: string; changedAt: string } };
export type DeletePermission = { type: 'DeletePermission'; data: { permissionId: string; deletedAt: string } };
export type CreateRole = { type: 'CreateRole'; data: OrganizationRole & { createdAt: string } };
export type ChangeRoleTitle = { type: 'ChangeRoleTitle'; data: { roleId: string; title: string; changedAt: string } };
export type ChangeRoleSlug = { type: 'ChangeRoleSlug'; data: { roleId: string; slug: string; changedAt: string } };
export type DeleteRole = { type: 'DeleteRole'; data: { roleId: string; deletedAt: string } };
export type GrantPermissionToRole = { type: 'GrantPermissionToRole'; data: { roleId: string; permissionId: string; at: string } };
export type RevokePermissionFromRole = { type: 'RevokePermissionFromRole'; data: { roleId: string; permissionId: string; at: string } };
export type OrganizationAccessCommand =
  | CreatePermission
  | ChangePermissionTitle
  | ChangePermissionSlug
  | DeletePermission
  | CreateRole
  | ChangeRoleTitle
  | ChangeRoleSlug
  | DeleteRole
  | GrantPermissionToRole
  | RevokePermissionFromRole;
export const ORGANIZATION_ACCESS_COMMAND_TYPES: OrganizationAccessCommand['type'][] = [
  'CreatePermission',
  'ChangePermissionTitle',
  'ChangePermissionSlug',
  'DeletePermission',
  'CreateRole',
  'ChangeRoleTitle',
  'ChangeRoleSlug',
  'DeleteRole',
  'GrantPermissionToRole',
  'RevokePermissionFromRole',
];

export const ACCESS_TEXT_MAX = 255;
/**
 * Slugs are OAuth2 scope tokens (RFC 6749 section 3.3 allows more; we keep what every client and
 * every URL carries without escaping): lowercase letters and digits, then also '.', '_', ':' and '-'.
 */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9._:-]*$/;


/** A role's or permission's title as stored: trimmed, required, at most ACCESS_TEXT_MAX characters. */
export function checkAccessTitle(title: string): string {
  const trimmed = title.trim();
  if (!trimmed) throw fieldError('access.title_invalid', 'title', 'Title is required');
  if ([...trimmed].length > ACCESS_TEXT_MAX) throw fieldError('access.title_invalid', 'title', `Title may be at most ${ACCESS_TEXT_MAX} characters`);
  return trimmed;
}

/**
 * A slug as stored: trimmed, shaped as an OAuth2 scope token (SLUG_PATTERN), and unique among `taken`
 * (the other permissions or roles of the same `owner`, an organization or an application).
 */
export function checkAccessSlug(slug: string, taken: Iterable<{ slug: string }>, what: 'permission' | 'role', owner: 'organization' | 'application'): string {
  const trimmed = slug.trim();
  if (!trimmed) throw fieldError('access.slug_invalid', 'slug', 'Slug is required');
  if (trimmed.length > ACCESS_TEXT_MAX) throw fieldError('access.slug_invalid', 'slug', `Slug may be at most ${ACCESS_TEXT_MAX} characters`);
  if (!SLUG_PATTERN.test(trimmed)) throw fieldError('access.slug_invalid', 'slug', "Slug may hold lowercase letters, digits, '.', '_', ':' and '-', and starts with a letter or digit");
  for (const other of taken) if (other.slug === trimmed) throw fieldError(`${what}.slug_taken`, 'slug', `The slug ${trimmed} is already used by another ${what} of this ${owner}`);
  return trimmed;
}

const checkTitle = checkAccessTitle;
const checkSlug = (slug: string, taken: Iterable<{ slug: string }>, what: 'permission' | 'role') => checkAccessSlug(slug, taken, what, 'organization');

function checkDescription(description: string): string {
  if ([...description].length > 2000) throw fieldError('access.description_invalid', 'description', 'Description may be at most 2000 characters');
  return description;
}

const others = <T extends object>(items: Record<string, T>, exceptId: string) => Object.entries(items).filter(([id]) => id !== exceptId).map(([, item]) => item);

function permissionOf(state: OrganizationAccessState, permissionId: string): OrganizationPermission {
  const permission = state.permissions[permissionId];
  if (!permission) throw new DomainError('permission.not_found', 'Permission not found');
  return permission;
}

function roleOf(state: OrganizationAccessState, roleId: string): OrganizationRole {
  const role = state.roles[roleId];
  if (!role) throw new DomainError('role.not_found', 'Role not found');
  return role;
}

/** Decides on an existing organization's permissions and roles (the caller checked it is active). */
export function decideOrganizationAccess(command: OrganizationAccessCommand, state: OrganizationAccessState, organizationId: string): OrganizationAccessEvent[] {
  switch (command.type) {
    case 'CreatePermission': {
      const { permissionId, isProtected, createdAt } = command.data;
      if (state.permissions[permissionId]) throw new DomainError('permission.exists', 'This permission already exists');
      const title = checkTitle(command.data.title);
      const slug = checkSlug(command.data.slug, Object.values(state.permissions), 'permission');
      const description = checkDescription(command.data.description);
      return [{ type: 'PermissionCreated', data: { organizationId, permissionId, title, slug, description, isProtected, createdAt } }];
    }
    case 'ChangePermissionTitle': {
      const permission = permissionOf(state, command.data.permissionId);
      const title = checkTitle(command.data.title);
      return title === permission.title ? [] : [{ type: 'PermissionTitleChanged', data: { organizationId, permissionId: permission.permissionId, title, changedAt: command.data.changedAt } }];
    }
    case 'ChangePermissionSlug': {
      const permission = permissionOf(state, command.data.permissionId);
      const slug = checkSlug(command.data.slug, others(state.permissions, permission.permissionId), 'permission');
      return slug === permission.slug ? [] : [{ type: 'PermissionSlugChanged', data: { organizationId, permissionId: permission.permissionId, slug, changedAt: command.data.changedAt } }];
    }
    case 'DeletePermission': {
      const permission = permissionOf(state, command.data.permissionId);
      if (permission.isProtected) throw new DomainError('permission.protected', `The permission ${permission.slug} is protected and cannot be deleted`);
      return [{ type: 'PermissionDeleted', data: { organizationId, permissionId: permission.permissionId, slug: permission.slug, deletedAt: command.data.deletedAt } }];
    }
    case 'CreateRole': {
      const { roleId, isProtected, createdAt } = command.data;
      if (state.roles[roleId]) throw new DomainError('role.exists', 'This role already exists');
      const title = checkTitle(command.data.title);
      const slug = checkSlug(command.data.slug, Object.values(state.roles), 'role');
      const description = checkDescription(command.data.description);
      const permissionIds = [...new Set(command.data.permissionIds)];
      const unknown = permissionIds.filter((id) => !state.permissions[id]);
      if (unknown.length) throw fieldError('permission.not_found', 'permissions', `These permissions do not belong to this organization: ${unknown.join(', ')}`);
      return [{ type: 'RoleCreated', data: { organizationId, roleId, title, slug, description, permissionIds, isProtected, createdAt } }];
    }
    case 'ChangeRoleTitle': {
      const role = roleOf(state, command.data.roleId);
      const title = checkTitle(command.data.title);
      return title === role.title ? [] : [{ type: 'RoleTitleChanged', data: { organizationId, roleId: role.roleId, title, changedAt: command.data.changedAt } }];
    }
    case 'ChangeRoleSlug': {
      const role = roleOf(state, command.data.roleId);
      const slug = checkSlug(command.data.slug, others(state.roles, role.roleId), 'role');
      return slug === role.slug ? [] : [{ type: 'RoleSlugChanged', data: { organizationId, roleId: role.roleId, slug, changedAt: command.data.changedAt } }];
    }
    case 'DeleteRole': {
      const role = roleOf(state, command.data.roleId);
      if (role.isProtected) throw new DomainError('role.protected', `The role ${role.slug} is protected and cannot be deleted`);
      return [{ type: 'RoleDeleted', data: { organizationId, roleId: role.roleId, slug: role.slug, deletedAt: command.data.deletedAt } }];
    }
    case 'GrantPermissionToRole': {
      const role = roleOf(state, command.data.roleId);
      permissionOf(state, command.data.permissionId);
      // switching on what is already on changes nothing (a double click, two consoles)
      if (role.permissionIds.includes(command.data.permissionId)) return [];
      return [{ type: 'PermissionGrantedToRole', data: { organizationId, ...command.data } }];
    }
    case 'RevokePermissionFromRole': {
      const role = roleOf(state, command.data.roleId);
      if (!role.permissionIds.includes(command.data.permissionId)) return [];
      return [{ type: 'PermissionRevokedFromRole', data: { organizationId, ...command.data } }];
    }
    default: {
      const unhandled: never = command;
      throw new Error(`unhandled command ${(unhandled as { type: string }).type}`);
    }
  }
}

const withRole = (state: OrganizationAccessState, roleId: string, change: (role: OrganizationRole) => OrganizationRole): OrganizationAccessState => {
  const role = state.roles[roleId];
  return role ? { ...state, roles: { ...state.roles, [roleId]: change(role) } } : state;
};

const withPermission = (state: OrganizationAccessState, permissionId: string, change: (permission: OrganizationPermission) => OrganizationPermission): OrganizationAccessState => {
  const permission = state.permissions[permissionId];
  return permission ? { ...state, permissions: { ...state.permissions, [permissionId]: change(permission) } } : state;
};

export function evolveOrganizationAccess(state: OrganizationAccessState, event: OrganizationAccessEvent): OrganizationAccessState {
  switch (event.type) {
    case 'PermissionCreated': {
      const { permissionId, title, slug, description, isProtected } = event.data;
      return { ...state, permissions: { ...state.permissions, [permissionId]: { permissionId, title, slug, description, isProtected } } };
    }
    case 'PermissionTitleChanged':
      return withPermission(state, event.data.permissionId, (permission) => ({ ...permission, title: event.data.title }));
    case 'PermissionSlugChanged':
      return withPermission(state, event.data.permissionId, (permission) => ({ ...permission, slug: event.data.slug }));
    case 'PermissionDeleted': {
      const { [event.data.permissionId]: _deleted, ...permissions } = state.permissions;
      const roles = Object.fromEntries(Object.entries(state.roles).map(([id, role]) => [id, { ...role, permissionIds: role.permissionIds.filter((p) => p !== event.data.permissionId) }]));
      return { permissions, roles };
    }
    case 'RoleCreated': {
      const { roleId, title, slug, description, permissionIds, isProtected } = event.data;
      return { ...state, roles: { ...state.roles, [roleId]: { roleId, title, slug, description, permissionIds, isProtected } } };
    }
    case 'RoleTitleChanged':
      return withRole(state, event.data.roleId, (role) => ({ ...role, title: event.data.title }));
    case 'RoleSlugChanged':
      return withRole(state, event.data.roleId, (role) => ({ ...role, slug: event.data.slug }));
    case 'RoleDeleted': {
      const { [event.data.roleId]: _deleted, ...roles } = state.roles;
      return { ...state, roles };
    }
    case 'PermissionGrantedToRole':
      return withRole(state, event.data.roleId, (role) => ({ ...role, permissionIds: [...role.permissionIds, event.data.permissionId] }));
    case 'PermissionRevokedFromRole':
      return withRole(state, event.data.roleId, (role) => ({ ...role, permissionIds: role.permissionIds.filter((id) => id !== event.data.permissionId) }));
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}
