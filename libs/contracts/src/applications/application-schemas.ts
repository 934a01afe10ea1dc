import { z } from 'zod';
import { ZAccountId, ZBooleanish } from '../accounts/account-schemas';
import { answerId, answerTimestamp } from '../common/answers';
import { answerText, boundedText, lineText, multilineText, requiredLine, TEXT_MAX, TOKEN_TEXT_MAX, uuidOf } from '../common/text';
import { ORGANIZATION_DESCRIPTION_MAX } from '../organizations/organization-schemas';
import { ZPermissionId, ZRoleId } from '../organizations/role-schemas';

/**
 * Applications (console-directory.md sections 2-5 and the v2 application calls) and what a relying
 * party needs beyond them: the inputs of REST v2 and tRPC and the shapes they answer. See
 * docs/adr/0014. These schemas check presence, types, lengths and list sizes; the rules of form
 * (scope tokens, absolute https redirect URIs without fragment, grant types that fit the client type)
 * are the domain's, which answers them under the same wire fields.
 */
export const APPLICATION_DESCRIPTION_MAX = ORGANIZATION_DESCRIPTION_MAX;
export const APPLICATION_SCOPES_MAX = 50;
export const REDIRECT_URI_MAX = 2000;
export const REDIRECT_URIS_MAX = 20;
export const APPLICATION_CLIENT_TYPES = ['confidential', 'public'] as const;
export type TApplicationClientType = (typeof APPLICATION_CLIENT_TYPES)[number];
export const APPLICATION_GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const;
export type TApplicationGrantType = (typeof APPLICATION_GRANT_TYPES)[number];

/** The application id is also its OAuth2 client_id and the spec's `unique_id`. */
export const ZApplicationId = uuidOf('application id', 'application id must be a UUID', 'application id is required');
/** the link of a permission to an application role: add-permission answers it, remove-permission names it */
export const ZRolePermissionRelationId = uuidOf('relation id', 'relation id must be a UUID', 'relation id is required');

const ZTitle = requiredLine('Title', TEXT_MAX);
/** optional (spec section 5): absent, null and '' all mean none */
const ZUrl = lineText('URL', TEXT_MAX)
  .nullish()
  .transform((value) => value || null);
const ZDescription = multilineText('Description', APPLICATION_DESCRIPTION_MAX)
  .nullish()
  .transform((value) => value ?? '');
const ZSlug = requiredLine('Slug', TEXT_MAX);

/** one row of the create dialog's repeatable scopes; the description is shown on the consent page */
export const ZApplicationScope = z.object({
  scope: requiredLine('Scope', TEXT_MAX),
  description: ZDescription,
});
const ZScopes = z
  .array(ZApplicationScope, { error: 'scopes must be a list of scope and description' })
  .max(APPLICATION_SCOPES_MAX, { error: `At most ${APPLICATION_SCOPES_MAX} scopes` })
  .nullish()
  .transform((value) => value ?? []);

const uriList = (what: string) =>
  z
    .array(
      boundedText(`A ${what}`, REDIRECT_URI_MAX, { trim: true, typeError: `Each ${what} must be text` }).min(1, { error: `A ${what} may not be empty` }),
      { error: `${what}s must be a list of absolute URIs` },
    )
    .max(REDIRECT_URIS_MAX, { error: `At most ${REDIRECT_URIS_MAX} ${what}s` })
    .nullish()
    .transform((value) => value ?? []);

/**
 * The client settings (our addition, docs/adr/0014). Confidential clients get a secret, shown once in
 * the answer; public clients (single-page and native apps) must use PKCE. Redirect URIs are compared
 * exactly.
 */
const clientShape = {
  client_type: z.enum(APPLICATION_CLIENT_TYPES, { error: `client_type must be one of ${APPLICATION_CLIENT_TYPES.join(', ')}` }),
  redirect_uris: uriList('redirect URI'),
  post_logout_redirect_uris: uriList('post-logout redirect URI'),
  grant_types: z
    .array(z.enum(APPLICATION_GRANT_TYPES, { error: `Grant types are ${APPLICATION_GRANT_TYPES.join(', ')}` }), { error: 'grant_types must be a list' })
    .nullish()
    .transform((value) => [...new Set(value ?? [])]),
  require_pkce: ZBooleanish.default(true),
};

/**
 * `POST application`, `applications.create`: the 'Create a new application' dialog (title required,
 * URL optional, description, scopes), plus the client settings, which default to a confidential
 * client with no redirect URI and no grant type yet (it signs nobody in until configured).
 */
export const ZCreateApplicationInput = z.object({
  title: ZTitle,
  url: ZUrl,
  description: ZDescription,
  scopes: ZScopes,
  ...clientShape,
  client_type: clientShape.client_type.default('confidential'),
});
export type TCreateApplicationInput = z.input<typeof ZCreateApplicationInput>;
export type TCreateApplicationCommandInput = z.output<typeof ZCreateApplicationInput>;

/** `PATCH application/{id}/basic`: 'Basic app info updated' */
export const ZUpdateApplicationBasicInput = z.object({ title: ZTitle, url: ZUrl, description: ZDescription });
export type TUpdateApplicationBasicInput = z.input<typeof ZUpdateApplicationBasicInput>;
export type TUpdateApplicationBasicCommandInput = z.output<typeof ZUpdateApplicationBasicInput>;

/** `PUT application/{id}/scopes` (our addition): the whole list, as in the create dialog */
export const ZApplicationScopesInput = z.object({ scopes: ZScopes });
export type TApplicationScopesInput = z.input<typeof ZApplicationScopesInput>;

/** `PUT application/{id}/client` (our addition): the whole client settings */
export const ZApplicationClientInput = z.object(clientShape);
export type TApplicationClientInput = z.input<typeof ZApplicationClientInput>;
export type TApplicationClientCommandInput = z.output<typeof ZApplicationClientInput>;

/** `PATCH application/permission/{id}`: the row's Save */
export const ZApplicationPermissionInput = z.object({ slug: ZSlug, description: ZDescription });
export type TApplicationPermissionInput = z.input<typeof ZApplicationPermissionInput>;
export type TApplicationPermissionCommandInput = z.output<typeof ZApplicationPermissionInput>;

/** `POST application/{id}/permission`: the spec sends `permission {slug, description}`; a bare `{slug, description}` is taken too */
export const ZAddApplicationPermissionBody = z.preprocess(
  (body) => (body && typeof body === 'object' && 'permission' in body && typeof body.permission === 'object' ? body.permission : body),
  ZApplicationPermissionInput,
);
export type TAddApplicationPermissionBody = z.input<typeof ZAddApplicationPermissionBody>;

/** A role's permissions: ids, or the `{id}` objects the spec's role shape carries (both are accepted). */
const ZRolePermissionIds = z
  .array(z.union([ZPermissionId, z.object({ id: ZPermissionId }).transform((item) => item.id)]), { error: 'permissions must be a list of permission ids' })
  .nullish()
  .transform((ids) => [...new Set(ids ?? [])]);

/** `POST application/{id}/role`: 'Create new role for an application'; the answer holds the new role */
export const ZCreateApplicationRoleInput = z.object({ title: ZTitle, slug: ZSlug, description: ZDescription, permissions: ZRolePermissionIds });
export type TCreateApplicationRoleInput = z.input<typeof ZCreateApplicationRoleInput>;
export type TCreateApplicationRoleCommandInput = z.output<typeof ZCreateApplicationRoleInput>;

/** `PATCH application/role/{id}/title` (our route for the roles table's inline 'Update Title') */
export const ZApplicationRoleTitleInput = z.object({ title: ZTitle });

export const APPLICATION_SORT_FIELDS = ['created_at', 'title'] as const;

/** `GET applications`, `applications.list`: server paging, search on the title, sort */
export const ZListApplicationsInput = z.object({
  page: z.coerce.number({ error: 'page must be a number' }).int().min(1, { error: 'page starts at 1' }).default(1),
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1, { error: 'limit must be at least 1' }).max(100, { error: 'limit may be at most 100' }).default(10),
  search: lineText('search').optional(),
  sortBy: z.enum(APPLICATION_SORT_FIELDS, { error: `sortBy must be one of ${APPLICATION_SORT_FIELDS.join(', ')}` }).default('created_at'),
  desc: ZBooleanish.default(true),
});
export type TListApplicationsInput = z.input<typeof ZListApplicationsInput>;
export type TListApplicationsQuery = z.output<typeof ZListApplicationsInput>;

/** `POST account/{id}/application-role` (body) and its DELETE (query), our addition: the role names its application */
export const ZAccountApplicationRoleInput = z.object({ role_id: ZRoleId });

/** tRPC inputs: the REST inputs plus the ids REST carries in the path */
export const ZApplicationByIdInput = z.object({ id: ZApplicationId });
export const ZUpdateApplicationInput = ZUpdateApplicationBasicInput.extend({ id: ZApplicationId });
export const ZSetApplicationScopesInput = ZApplicationScopesInput.extend({ id: ZApplicationId });
export const ZConfigureApplicationClientInput = ZApplicationClientInput.extend({ id: ZApplicationId });
export const ZAddApplicationPermissionInput = ZApplicationPermissionInput.extend({ application_id: ZApplicationId });
export const ZUpdateApplicationPermissionInput = ZApplicationPermissionInput.extend({ id: ZPermissionId });
export const ZApplicationPermissionByIdInput = z.object({ id: ZPermissionId });
export const ZCreateApplicationRoleForInput = ZCreateApplicationRoleInput.extend({ application_id: ZApplicationId });
export const ZRenameApplicationRoleInput = ZApplicationRoleTitleInput.extend({ id: ZRoleId });
export const ZApplicationRoleByIdInput = z.object({ id: ZRoleId });
/** `POST application/role/{role_id}/add-permission/{permission_id}` */
export const ZAddApplicationRolePermissionInput = z.object({ role_id: ZRoleId, permission_id: ZPermissionId });
/** `DELETE application/role/remove-permission/{id}` */
export const ZRemoveApplicationRolePermissionInput = z.object({ id: ZRolePermissionRelationId });
export const ZSetAccountApplicationRoleInput = z.object({ account_id: ZAccountId, role_id: ZRoleId, associated: z.boolean({ error: 'associated must be true or false' }) });
export const ZAccountApplicationRolesInput = z.object({ account_id: ZAccountId, application_id: ZApplicationId.optional() });
/** the account revokes its consent to one application (or an administrator does, for it) */
export const ZRevokeApplicationConsentInput = z.object({ account_id: ZAccountId, application_id: ZApplicationId });

/** a declared scope as answers carry it (ZApplicationScope is the dialog's input) */
export const ZApplicationScopeAnswer = z.object({ scope: answerText(TEXT_MAX), description: answerText(APPLICATION_DESCRIPTION_MAX) });
export type TApplicationScope = z.infer<typeof ZApplicationScopeAnswer>;

/** How the application signs in at our OpenID Connect provider. The secret itself is never answered again. */
export const ZApplicationClient = z.object({
  client_id: answerText(64),
  client_type: z.enum(APPLICATION_CLIENT_TYPES),
  /** confidential: client_secret_basic or client_secret_post; public: none */
  token_endpoint_auth_methods: z.array(z.enum(['client_secret_basic', 'client_secret_post', 'none'])),
  redirect_uris: z.array(answerText(REDIRECT_URI_MAX)),
  post_logout_redirect_uris: z.array(answerText(REDIRECT_URI_MAX)),
  grant_types: z.array(z.enum(APPLICATION_GRANT_TYPES)),
  require_pkce: z.boolean(),
  /** when the current secret was issued; null for a public client */
  secret_issued_at: answerTimestamp().nullable(),
});
export type TApplicationClient = z.infer<typeof ZApplicationClient>;

/** An application (spec section 3). `unique_id` is the id, which is also the client_id. */
export const ZApplication = z.object({
  id: answerId(),
  title: answerText(TEXT_MAX),
  url: answerText(REDIRECT_URI_MAX).nullable(),
  description: answerText(APPLICATION_DESCRIPTION_MAX),
  unique_id: answerId(),
  created_at: answerTimestamp(),
  updated_at: answerTimestamp(),
  scopes: z.array(ZApplicationScopeAnswer),
  client: ZApplicationClient,
});
export type TApplication = z.infer<typeof ZApplication>;

/** a row of `/applications` */
export const ZApplicationListItem = z.object({
  id: answerId(),
  title: answerText(TEXT_MAX),
  url: answerText(REDIRECT_URI_MAX).nullable(),
  description: answerText(APPLICATION_DESCRIPTION_MAX),
  unique_id: answerId(),
  client_type: z.enum(APPLICATION_CLIENT_TYPES),
  num_roles: z.number().int(),
  num_permissions: z.number().int(),
  created_at: answerTimestamp(),
  updated_at: answerTimestamp(),
});
export type TApplicationListItem = z.infer<typeof ZApplicationListItem>;

/** An application permission (spec section 3): its slug is a scope, its description the consent text. */
export const ZApplicationPermission = z.object({ id: answerId(), slug: answerText(TEXT_MAX), description: answerText(APPLICATION_DESCRIPTION_MAX), created_at: answerTimestamp() });
export type TApplicationPermission = z.infer<typeof ZApplicationPermission>;

/** a permission switched on for a role: `id` is the permission's, `relation_id` what switching off names */
export const ZApplicationRolePermission = z.object({ id: answerId(), relation_id: answerId() });
export type TApplicationRolePermission = z.infer<typeof ZApplicationRolePermission>;

/** An application role (spec section 3); `num_associations` counts the accounts holding it. */
export const ZApplicationRole = z.object({
  id: answerId(),
  title: answerText(TEXT_MAX),
  slug: answerText(TEXT_MAX),
  description: answerText(APPLICATION_DESCRIPTION_MAX),
  created_at: answerTimestamp(),
  permissions: z.array(ZApplicationRolePermission),
  num_associations: z.number().int(),
});
export type TApplicationRole = z.infer<typeof ZApplicationRole>;

/** `GET application/{id}`: `data.data.app`, `roles` and `permissions` */
export const ZApplicationDetails = z.object({ app: ZApplication, roles: z.array(ZApplicationRole), permissions: z.array(ZApplicationPermission) });
export type TApplicationDetails = z.infer<typeof ZApplicationDetails>;

/** the answer of add-permission: `data.data.id` is the relation id */
export const ZApplicationRolePermissionRelation = z.object({ id: answerId(), role_id: answerId(), permission_id: answerId() });
export type TApplicationRolePermissionRelation = z.infer<typeof ZApplicationRolePermissionRelation>;

/** Shown once, when a confidential client is created, turns confidential, or rotates its secret. */
export const ZApplicationClientSecret = z.object({ client_id: answerText(64), client_secret: answerText(TOKEN_TEXT_MAX), issued_at: answerTimestamp() });
export type TApplicationClientSecret = z.infer<typeof ZApplicationClientSecret>;

/** create, client settings and rotation answer the application with the new secret when one was issued */
export const ZApplicationWithSecret = z.object({ app: ZApplication, client_secret: ZApplicationClientSecret.nullable() });
export type TApplicationWithSecret = z.infer<typeof ZApplicationWithSecret>;

/** what create, client settings and rotation answer over REST: the details, and `client_secret` exactly when this call issued one */
export const ZApplicationDetailsWithSecret = ZApplicationDetails.extend({ client_secret: ZApplicationClientSecret.nullable() });

/** `PATCH application/{id}/basic`: the notice and the details */
export const ZApplicationBasicUpdated = ZApplicationDetails.extend({ message: answerText() });

/** `PATCH application/permission/{id}`: the notice and the permission as it is now */
export const ZApplicationPermissionUpdated = z.object({ message: answerText(), permission: ZApplicationPermission });

/** an application role as the account sees it: `associated` 1 when it holds the role */
export const ZAccountApplicationRole = z.object({
  application_id: answerId(),
  application_title: answerText(TEXT_MAX),
  id: answerId(),
  title: answerText(TEXT_MAX),
  slug: answerText(TEXT_MAX),
  associated: z.literal([0, 1]),
});
export type TAccountApplicationRole = z.infer<typeof ZAccountApplicationRole>;

/** what an account consented to, per application */
export const ZApplicationConsent = z.object({
  application_id: answerId(),
  application_title: answerText(TEXT_MAX),
  scopes: z.array(answerText(TEXT_MAX)),
  given_at: answerTimestamp(),
  updated_at: answerTimestamp(),
});
export type TApplicationConsent = z.infer<typeof ZApplicationConsent>;

/** `POST oidc/keys/rotate`: the published signing key ids, the signing one first */
export const ZSigningKeysRotated = z.object({ key_ids: z.array(answerText(TOKEN_TEXT_MAX)) });

/** The notices of the spec (section 8) for applications, and ours where the spec shows none. */
export const APPLICATION_NOTICES = {
  applicationCreated: 'Application created',
  basicInfoUpdated: 'Basic app info updated',
  scopesUpdated: 'Scopes updated',
  clientUpdated: 'Client settings updated',
  secretRotated: 'Client secret rotated: copy it now, it is shown only once',
  applicationDeleted: 'Application deleted',
  permissionCreated: 'Permission created!',
  permissionUpdated: 'Permission updated',
  permissionDeleted: 'Permission deleted',
  roleCreated: 'Role created successfully',
  roleTitleUpdated: 'Role title updated',
  roleDeleted: 'Role deleted successfully',
  roleAddedToAccount: 'Role added to account',
  roleRemovedFromAccount: 'Role removed from account',
  consentRevoked: 'Consent revoked',
} as const;
