import { z } from 'zod';
import { ZAccountId } from '../accounts/account-schemas';
import { answerId, answerTimestamp } from '../common/answers';
import { answerText, DOMAIN_CHECKED_TEXT_MAX, multilineText, requiredLine, TEXT_MAX, uuidOf } from '../common/text';
import { ORGANIZATION_DESCRIPTION_MAX, ZOrganizationId } from './organization-schemas';

/**
 * An organization's permissions and roles and the roles its members hold (console-directory.md
 * sections 2-4 and 7 'Roles and permissions', console-accounts.md tab 4): the inputs of REST v1/v2
 * and tRPC and the shapes they answer. Slugs are OAuth2 scope tokens, unique within the
 * organization; the server checks their form (`access.slug_invalid` on `slug`).
 */
export const ZPermissionId = uuidOf('permission id', 'permission id must be a UUID', 'permission id is required');
export const ZRoleId = uuidOf('role id', 'role id must be a UUID', 'role id is required');

const ZAccessTitle = requiredLine('Title', TEXT_MAX);
const ZAccessSlug = requiredLine('Slug', TEXT_MAX);
const ZAccessDescription = multilineText('Description', ORGANIZATION_DESCRIPTION_MAX)
  .nullish()
  .transform((value) => value ?? '');

/** `POST permission`, `organizations.createPermission`: the 'Create new permission' dialog. */
export const ZCreatePermissionInput = z.object({
  organization_id: ZOrganizationId,
  title: ZAccessTitle,
  slug: ZAccessSlug,
  description: ZAccessDescription,
});
export type TCreatePermissionInput = z.input<typeof ZCreatePermissionInput>;
export type TCreatePermissionCommandInput = z.output<typeof ZCreatePermissionInput>;

/** A role's permissions: ids, or the `{id}` objects the role shapes carry (both are accepted). */
const ZPermissionIds = z
  .array(z.union([ZPermissionId, z.object({ id: ZPermissionId }).transform((item) => item.id)]), { error: 'permissions must be a list of permission ids' })
  .nullish()
  .transform((ids) => [...new Set(ids ?? [])]);

/**
 * `POST organization/{org}/role`: the 'Create role for an organization' dialog. `organization_id` in
 * the body may be left out; when given it must name the organization of the path.
 */
export const ZCreateRoleBody = z.object({
  organization_id: ZOrganizationId.optional(),
  title: ZAccessTitle,
  slug: ZAccessSlug,
  description: ZAccessDescription,
  permissions: ZPermissionIds,
});
export type TCreateRoleBody = z.input<typeof ZCreateRoleBody>;

/** `organizations.createRole` */
export const ZCreateRoleInput = ZCreateRoleBody.extend({ organization_id: ZOrganizationId, permissions: z.array(ZPermissionId, { error: 'permissions must be a list of permission ids' }).transform((ids) => [...new Set(ids)]) });
export type TCreateRoleInput = z.input<typeof ZCreateRoleInput>;
export type TCreateRoleCommandInput = { organization_id: string; title: string; slug: string; description: string; permissions: string[] };

/** `PATCH|POST role/{id}/title`, `PATCH permission/{id}/title` */
export const ZAccessTitleInput = z.object({ title: ZAccessTitle });
/** `PATCH|POST role/{id}/slug`, `PATCH permission/{id}/slug` */
export const ZAccessSlugInput = z.object({ slug: ZAccessSlug });
/** `POST role/{id}/permission` (body) and `DELETE role/{id}/permission?permission_id=` (query) */
export const ZRolePermissionInput = z.object({ permission_id: ZPermissionId });
/** `POST organization/{org}/account-role` (body) and its DELETE (query) */
export const ZAccountRoleInput = z.object({ account_id: ZAccountId, role_id: ZRoleId });
/** `POST account/{id}/toggle-role` (body) and its DELETE (query): the role names its organization */
export const ZToggleRoleInput = z.object({ role_id: ZRoleId });

/** tRPC inputs */
export const ZPermissionByIdInput = z.object({ id: ZPermissionId });
export const ZRenamePermissionInput = z.object({ id: ZPermissionId, title: ZAccessTitle });
export const ZReslugPermissionInput = z.object({ id: ZPermissionId, slug: ZAccessSlug });
export const ZRoleByIdInput = z.object({ id: ZRoleId });
export const ZRenameRoleInput = z.object({ id: ZRoleId, title: ZAccessTitle });
export const ZReslugRoleInput = z.object({ id: ZRoleId, slug: ZAccessSlug });
export const ZSetRolePermissionInput = z.object({ role_id: ZRoleId, permission_id: ZPermissionId, enabled: z.boolean({ error: 'enabled must be true or false' }) });
export const ZRoleAccountsInput = z.object({ role_id: ZRoleId });
export const ZPermissionAccountsInput = z.object({ permission_id: ZPermissionId });
/** `id` is the organization */
export const ZMemberRolesInput = z.object({ id: ZOrganizationId, account_id: ZAccountId });
export const ZSetMemberRoleInput = z.object({ id: ZOrganizationId, account_id: ZAccountId, role_id: ZRoleId, associated: z.boolean({ error: 'associated must be true or false' }) });
export type TSetRolePermissionInput = z.input<typeof ZSetRolePermissionInput>;
export type TSetMemberRoleInput = z.input<typeof ZSetMemberRoleInput>;

/** A permission of an organization (spec section 3). `value` repeats the title; `num_uses` counts the roles holding it. */
export const ZPermission = z.object({
  id: answerId(),
  title: answerText(TEXT_MAX),
  slug: answerText(TEXT_MAX),
  value: answerText(TEXT_MAX),
  description: answerText(ORGANIZATION_DESCRIPTION_MAX),
  num_uses: z.number().int(),
  created_at: answerTimestamp(),
  protected: z.boolean(),
});
export type TPermission = z.infer<typeof ZPermission>;

/** A role of an organization; `num_associations` counts the accounts holding it. */
export const ZRole = z.object({
  id: answerId(),
  title: answerText(TEXT_MAX),
  slug: answerText(TEXT_MAX),
  description: answerText(ORGANIZATION_DESCRIPTION_MAX),
  organization_id: answerId(),
  num_associations: z.number().int(),
  permissions: z.array(z.object({ id: answerId() })),
  created_at: answerTimestamp(),
  protected: z.boolean(),
});
export type TRole = z.infer<typeof ZRole>;

/** 'Roles of a member': every role of the organization, `associated` 1 when the account holds it. */
export const ZMemberRoleFlag = ZRole.extend({ associated: z.literal([0, 1]) });
export type TMemberRoleFlag = z.infer<typeof ZMemberRoleFlag>;

/** a row of 'Associated accounts for a role' */
export const ZRoleAccount = z.object({ id: answerId(), first_name: answerText(DOMAIN_CHECKED_TEXT_MAX), last_name: answerText(DOMAIN_CHECKED_TEXT_MAX), username_readable: answerText(TEXT_MAX) });
export type TRoleAccount = z.infer<typeof ZRoleAccount>;

/** The notices of the spec (console-directory.md section 8), as the answers' `message`. */
export const ACCESS_NOTICES = {
  permissionCreated: 'Permission created!',
  permissionTitleUpdated: 'Permission title updated',
  permissionSlugUpdated: 'Permission slug updated',
  permissionDeleted: 'Permission deleted',
  roleCreated: 'Role created successfully',
  roleTitleUpdated: 'Role title updated',
  roleSlugUpdated: 'Role slug updated',
  roleDeleted: 'Role deleted successfully',
  roleAddedToAccount: 'Role added to account',
  roleRemovedFromAccount: 'Role removed from account',
} as const;
export const rolePermissionNotice = (slug: string, enabled: boolean) => `Permission ${slug} ${enabled ? 'enabled' : 'disabled'} for the role`;
