import { DomainError, fieldError, type DomainEvent } from '../shared';
import { checkAccessSlug, checkAccessTitle } from '../organization/organization-access';

/**
 * An application's permissions and roles (console-directory.md: 'Application-level roles and
 * permissions mirror this'; sections 2, 3, 4 and the v2 application calls). They live in the
 * application's stream, so slugs are unique within the application by its optimistic concurrency.
 *
 * Unlike an organization's, an application permission has no title (the entity and both calls carry
 * `slug` and `description` only: the row's 'Permission title' field is the slug), and the link of a
 * permission to a role has its own id: add-permission answers it and remove-permission names it.
 */
export interface ApplicationPermission {
  permissionId: string;
  /** an OAuth2 scope the relying party may request (docs/adr/0014) */
  slug: string;
  /** 'Shown in user consent form' */
  description: string;
}

export interface RolePermissionLink {
  linkId: string;
  permissionId: string;
}

export interface ApplicationRole {
  roleId: string;
  title: string;
  slug: string;
  description: string;
  /** in the order they were switched on */
  permissions: RolePermissionLink[];
}

export interface ApplicationAccessState {
  permissions: Record<string, ApplicationPermission>;
  roles: Record<string, ApplicationRole>;
}

export const emptyApplicationAccess = (): ApplicationAccessState => ({ permissions: {}, roles: {} });

type WithApplication<T> = T & { applicationId: string };
export type ApplicationPermissionAdded = DomainEvent<'ApplicationPermissionAdded', WithApplication<ApplicationPermission & { createdAt: string }>>;
/** the row's Save: slug and description together */
export type ApplicationPermissionChanged = DomainEvent<'ApplicationPermissionChanged', WithApplication<ApplicationPermission & { changedAt: string }>>;
/** also ends every link of the permission to a role */
export type ApplicationPermissionRemoved = DomainEvent<'ApplicationPermissionRemoved', WithApplication<{ permissionId: string; slug: string; removedAt: string }>>;
export type ApplicationRoleCreated = DomainEvent<'ApplicationRoleCreated', WithApplication<ApplicationRole & { createdAt: string }>>;
export type ApplicationRoleTitleChanged = DomainEvent<'ApplicationRoleTitleChanged', WithApplication<{ roleId: string; title: string; changedAt: string }>>;
/** ends the role's links; accounts holding it lose it in every read model (docs/adr/0014) */
export type ApplicationRoleDeleted = DomainEvent<'ApplicationRoleDeleted', WithApplication<{ roleId: string; slug: string; deletedAt: string }>>;
export type PermissionAddedToApplicationRole = DomainEvent<'PermissionAddedToApplicationRole', WithApplication<RolePermissionLink & { roleId: string; at: string }>>;
export type PermissionRemovedFromApplicationRole = DomainEvent<'PermissionRemovedFromApplicationRole', WithApplication<RolePermissionLink & { roleId: string; at: string }>>;

export type ApplicationAccessEvent =
  | ApplicationPermissionAdded
  | ApplicationPermissionChanged
  | ApplicationPermissionRemoved
  | ApplicationRoleCreated
  | ApplicationRoleTitleChanged
  | ApplicationRoleDeleted
  | PermissionAddedToApplicationRole
  | PermissionRemovedFromApplicationRole;
export const APPLICATION_ACCESS_EVENT_TYPES: ApplicationAccessEvent['type'][] = [
  'ApplicationPermissionAdded',
  'ApplicationPermissionChanged',
  'ApplicationPermissionRemoved',
  'ApplicationRoleCreated',
  'ApplicationRoleTitleChanged',
  'ApplicationRoleDeleted',
  'PermissionAddedToApplicationRole',
  'PermissionRemovedFromApplicationRole',
];

export type AddApplicationPermission = { type: 'AddApplicationPermission'; data: ApplicationPermission & { createdAt: string } };
export type ChangeApplicationPermission = { type: 'ChangeApplicationPermission'; data: ApplicationPermission & { changedAt: string } };
export type RemoveApplicationPermission = { type: 'RemoveApplicationPermission'; data: { permissionId: string; removedAt: string } };
/** `permissions`: the dialog's chosen permission ids, each with a fresh link id from the caller */
export type CreateApplicationRole = { type: 'CreateApplicationRole'; data: ApplicationRole & { createdAt: string } };
/** the roles table's inline 'Update Title' */
export type ChangeApplicationRoleTitle = { type: 'ChangeApplicationRoleTitle'; data: { roleId: string; title: string; changedAt: string } };
export type DeleteApplicationRole = { type: 'DeleteApplicationRole'; data: { roleId: string; deletedAt: string } };
/** switch on; `linkId` is fresh from the caller and becomes the answer's relation id */
export type AddPermissionToApplicationRole = { type: 'AddPermissionToApplicationRole'; data: RolePermissionLink & { roleId: string; at: string } };
/** switch off, by the relation id add-permission answered */
export type RemovePermissionFromApplicationRole = { type: 'RemovePermissionFromApplicationRole'; data: { linkId: string; at: string } };

export type ApplicationAccessCommand =
  | AddApplicationPermission
  | ChangeApplicationPermission
  | RemoveApplicationPermission
  | CreateApplicationRole
  | ChangeApplicationRoleTitle
  | DeleteApplicationRole
  | AddPermissionToApplicationRole
  | RemovePermissionFromApplicationRole;
export const APPLICATION_ACCESS_COMMAND_TYPES: ApplicationAccessCommand['type'][] = [
  'AddApplicationPermission',
  'ChangeApplicationPermission',
  'RemoveApplicationPermission',
  'CreateApplicationRole',
  'ChangeApplicationRoleTitle',
  'DeleteApplicationRole',
  'AddPermissionToApplicationRole',
  'RemovePermissionFromApplicationRole',
];

/**
 * Scopes whose meaning OpenID Connect (or our roles claim) fixes: an application may declare them
 * among its scopes (to describe them on the consent page) but no permission may take their name, or
 * a permission would silently release claims, refresh tokens or roles.
 */
export const RESERVED_SCOPES: readonly string[] = ['openid', 'profile', 'email', 'address', 'phone', 'offline_access', 'roles'];

export const APPLICATION_DESCRIPTION_MAX = 2000;

/** What the access rules need to know of the rest of the application. */
export interface ApplicationAccessContext {
  applicationId: string;
  /** the application's declared scopes: a permission slug may not repeat one (one scope, one consent text) */
  scopes: readonly string[];
}


const checkTitle = checkAccessTitle;
const checkSlug = (slug: string, taken: Iterable<{ slug: string }>, what: 'permission' | 'role') => checkAccessSlug(slug, taken, what, 'application');

/** A permission slug is also a scope the relying party requests, so it must not mean something else already. */
function checkPermissionSlug(slug: string, state: ApplicationAccessState, context: ApplicationAccessContext, exceptId: string | null): string {
  const trimmed = checkSlug(slug, others(state.permissions, exceptId), 'permission');
  if (RESERVED_SCOPES.includes(trimmed)) throw fieldError('access.slug_invalid', 'slug', `${trimmed} is a standard OpenID Connect scope and cannot be a permission slug`);
  if (context.scopes.includes(trimmed)) throw fieldError('permission.slug_taken', 'slug', `${trimmed} is already a scope of this application`);
  return trimmed;
}

function checkDescription(description: string): string {
  if ([...description].length > APPLICATION_DESCRIPTION_MAX) throw fieldError('access.description_invalid', 'description', `Description may be at most ${APPLICATION_DESCRIPTION_MAX} characters`);
  return description;
}

const others = <T extends object>(items: Record<string, T>, exceptId: string | null) => Object.entries(items).filter(([id]) => id !== exceptId).map(([, item]) => item);

function permissionOf(state: ApplicationAccessState, permissionId: string): ApplicationPermission {
  const permission = state.permissions[permissionId];
  if (!permission) throw new DomainError('permission.not_found', 'Permission not found');
  return permission;
}

function roleOf(state: ApplicationAccessState, roleId: string): ApplicationRole {
  const role = state.roles[roleId];
  if (!role) throw new DomainError('role.not_found', 'Role not found');
  return role;
}

/** The live link with this id, and its role; null when it never existed here or was removed. */
export function findRolePermissionLink(state: ApplicationAccessState, linkId: string): (RolePermissionLink & { roleId: string }) | null {
  for (const role of Object.values(state.roles)) {
    const link = role.permissions.find((item) => item.linkId === linkId);
    if (link) return { ...link, roleId: role.roleId };
  }
  return null;
}

/** The relation id of a permission on a role: what a repeated switch-on answers. */
export function rolePermissionLinkId(state: ApplicationAccessState, roleId: string, permissionId: string): string | null {
  return state.roles[roleId]?.permissions.find((link) => link.permissionId === permissionId)?.linkId ?? null;
}

/** Link ids come from the caller's id generator: a repeat is a bug of the caller, never input. */
function assertFreshLinkIds(state: ApplicationAccessState, linkIds: string[]): void {
  const fresh = new Set(linkIds);
  if (fresh.size !== linkIds.length || linkIds.some((linkId) => findRolePermissionLink(state, linkId))) throw new Error('role-permission link ids must be new');
}

/** Decides on a live application's permissions and roles (the caller checked it is active). */
export function decideApplicationAccess(command: ApplicationAccessCommand, state: ApplicationAccessState, context: ApplicationAccessContext): ApplicationAccessEvent[] {
  const { applicationId } = context;
  switch (command.type) {
    case 'AddApplicationPermission': {
      const { permissionId, createdAt } = command.data;
      if (state.permissions[permissionId]) throw new DomainError('permission.exists', 'This permission already exists');
      const slug = checkPermissionSlug(command.data.slug, state, context, null);
      const description = checkDescription(command.data.description);
      return [{ type: 'ApplicationPermissionAdded', data: { applicationId, permissionId, slug, description, createdAt } }];
    }
    case 'ChangeApplicationPermission': {
      const permission = permissionOf(state, command.data.permissionId);
      const slug = checkPermissionSlug(command.data.slug, state, context, permission.permissionId);
      const description = checkDescription(command.data.description);
      if (slug === permission.slug && description === permission.description) return [];
      return [{ type: 'ApplicationPermissionChanged', data: { applicationId, permissionId: permission.permissionId, slug, description, changedAt: command.data.changedAt } }];
    }
    case 'RemoveApplicationPermission': {
      const permission = permissionOf(state, command.data.permissionId);
      return [{ type: 'ApplicationPermissionRemoved', data: { applicationId, permissionId: permission.permissionId, slug: permission.slug, removedAt: command.data.removedAt } }];
    }
    case 'CreateApplicationRole': {
      const { roleId, createdAt } = command.data;
      if (state.roles[roleId]) throw new DomainError('role.exists', 'This role already exists');
      const title = checkTitle(command.data.title);
      const slug = checkSlug(command.data.slug, Object.values(state.roles), 'role');
      const description = checkDescription(command.data.description);
      // a permission chosen twice is one switch
      const permissions = command.data.permissions.filter((link, index, all) => all.findIndex((other) => other.permissionId === link.permissionId) === index);
      const unknown = permissions.filter((link) => !state.permissions[link.permissionId]).map((link) => link.permissionId);
      if (unknown.length) throw fieldError('permission.not_found', 'permissions', `These permissions do not belong to this application: ${unknown.join(', ')}`);
      assertFreshLinkIds(state, permissions.map((link) => link.linkId));
      return [{ type: 'ApplicationRoleCreated', data: { applicationId, roleId, title, slug, description, permissions, createdAt } }];
    }
    case 'ChangeApplicationRoleTitle': {
      const role = roleOf(state, command.data.roleId);
      const title = checkTitle(command.data.title);
      return title === role.title ? [] : [{ type: 'ApplicationRoleTitleChanged', data: { applicationId, roleId: role.roleId, title, changedAt: command.data.changedAt } }];
    }
    case 'DeleteApplicationRole': {
      const role = roleOf(state, command.data.roleId);
      return [{ type: 'ApplicationRoleDeleted', data: { applicationId, roleId: role.roleId, slug: role.slug, deletedAt: command.data.deletedAt } }];
    }
    case 'AddPermissionToApplicationRole': {
      const { roleId, permissionId, linkId, at } = command.data;
      roleOf(state, roleId);
      permissionOf(state, permissionId);
      // switching on what is on changes nothing; the caller answers the existing relation id (rolePermissionLinkId)
      if (rolePermissionLinkId(state, roleId, permissionId)) return [];
      assertFreshLinkIds(state, [linkId]);
      return [{ type: 'PermissionAddedToApplicationRole', data: { applicationId, roleId, permissionId, linkId, at } }];
    }
    case 'RemovePermissionFromApplicationRole': {
      // a relation already removed (a double click, its role or permission gone) is off already
      const link = findRolePermissionLink(state, command.data.linkId);
      if (!link) return [];
      return [{ type: 'PermissionRemovedFromApplicationRole', data: { applicationId, ...link, at: command.data.at } }];
    }
    default: {
      const unhandled: never = command;
      throw new Error(`unhandled command ${(unhandled as { type: string }).type}`);
    }
  }
}

const withRole = (state: ApplicationAccessState, roleId: string, change: (role: ApplicationRole) => ApplicationRole): ApplicationAccessState => {
  const role = state.roles[roleId];
  return role ? { ...state, roles: { ...state.roles, [roleId]: change(role) } } : state;
};

export function evolveApplicationAccess(state: ApplicationAccessState, event: ApplicationAccessEvent): ApplicationAccessState {
  switch (event.type) {
    case 'ApplicationPermissionAdded':
    case 'ApplicationPermissionChanged': {
      const { permissionId, slug, description } = event.data;
      return { ...state, permissions: { ...state.permissions, [permissionId]: { permissionId, slug, description } } };
    }
    case 'ApplicationPermissionRemoved': {
      const { [event.data.permissionId]: _removed, ...permissions } = state.permissions;
      const roles = Object.fromEntries(
        Object.entries(state.roles).map(([id, role]) => [id, { ...role, permissions: role.permissions.filter((link) => link.permissionId !== event.data.permissionId) }]),
      );
      return { permissions, roles };
    }
    case 'ApplicationRoleCreated': {
      const { roleId, title, slug, description, permissions } = event.data;
      return { ...state, roles: { ...state.roles, [roleId]: { roleId, title, slug, description, permissions } } };
    }
    case 'ApplicationRoleTitleChanged':
      return withRole(state, event.data.roleId, (role) => ({ ...role, title: event.data.title }));
    case 'ApplicationRoleDeleted': {
      const { [event.data.roleId]: _deleted, ...roles } = state.roles;
      return { ...state, roles };
    }
    case 'PermissionAddedToApplicationRole':
      return withRole(state, event.data.roleId, (role) => ({ ...role, permissions: [...role.permissions, { linkId: event.data.linkId, permissionId: event.data.permissionId }] }));
    case 'PermissionRemovedFromApplicationRole':
      return withRole(state, event.data.roleId, (role) => ({ ...role, permissions: role.permissions.filter((link) => link.linkId !== event.data.linkId) }));
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}
