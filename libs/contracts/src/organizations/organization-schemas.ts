import { z } from 'zod';
import { ZAccountId, ZBooleanish } from '../accounts/account-schemas';
import { answerId, answerTimestamp } from '../common/answers';
import { answerText, DOMAIN_CHECKED_TEXT_MAX, lineText, multilineText, requiredLine, TEXT_MAX, uuidOf } from '../common/text';

/**
 * Organizations and membership (console-directory.md sections 2-5 and 7, console-accounts.md tab 4):
 * the inputs of REST v1/v2 and tRPC and the shapes they answer. See docs/adr/0009.
 */
export const ORGANIZATION_DESCRIPTION_MAX = 2000;

export const ZOrganizationId = uuidOf('organization id', 'organization id must be a UUID', 'organization id is required');

/** An optional organization reference: empty text and null mean 'none' (forms send ''). */
const optionalOrganizationId = (field: string) =>
  z.preprocess((value) => (value === '' ? null : value), uuidOf(field, `${field} must be an organization id (UUID)`, `${field} must be an organization id`).nullish());

const ZTitle = requiredLine('Title', TEXT_MAX);
const ZDescription = multilineText('Description', ORGANIZATION_DESCRIPTION_MAX)
  .nullish()
  .transform((value) => value ?? '');

/** `POST organization`, `organizations.create`: the 'Create new organization' dialog. */
export const ZCreateOrganizationInput = z.object({
  title: ZTitle,
  description: ZDescription,
  /** absent, null or '': a top-level organization */
  parent_id: optionalOrganizationId('parent_id'),
});
export type TCreateOrganizationInput = z.input<typeof ZCreateOrganizationInput>;
export type TCreateOrganizationCommandInput = z.output<typeof ZCreateOrganizationInput>;

/**
 * `PATCH organization/details/{organization_id}`: the Details tab. `parent_id` (our addition) moves
 * the organization: absent keeps its place, null or '' makes it top-level.
 */
export const ZUpdateOrganizationDetailsInput = z.object({
  title: ZTitle,
  description: ZDescription,
  parent_id: optionalOrganizationId('parent_id'),
});
export type TUpdateOrganizationDetailsInput = z.input<typeof ZUpdateOrganizationDetailsInput>;
export type TUpdateOrganizationDetailsCommandInput = z.output<typeof ZUpdateOrganizationDetailsInput>;

export const DELETION_CHOICES = ['disconnect', 'delete', 'move'] as const;
export type TDeletionChoice = (typeof DELETION_CHOICES)[number];
const choice = (field: string) =>
  z.preprocess((value) => (value === '' || value === null ? undefined : value), z.enum(DELETION_CHOICES, { error: `${field} must be one of ${DELETION_CHOICES.join(', ')}` }).default('disconnect'));

/**
 * `DELETE organization/{id}` (query) and `organizations.delete`: the delete dialog's model. Each choice
 * defaults to 'disconnect'; 'move' needs its destination. The spec's `organization` query field (the
 * id again) is accepted and ignored.
 */
export const ZDeleteOrganizationChoices = z.object({
  suborganizations: choice('suborganizations'),
  suborganizations_move_to: optionalOrganizationId('suborganizations_move_to'),
  accounts: choice('accounts'),
  accounts_move_to: optionalOrganizationId('accounts_move_to'),
  organization: z.unknown().optional(),
});
export type TDeleteOrganizationChoicesInput = z.input<typeof ZDeleteOrganizationChoices>;
export type TDeleteOrganizationChoices = z.output<typeof ZDeleteOrganizationChoices>;

const pageShape = {
  page: z.coerce.number({ error: 'page must be a number' }).int().min(1, { error: 'page starts at 1' }).default(1),
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1, { error: 'limit must be at least 1' }).max(100, { error: 'limit may be at most 100' }).default(10),
};

export const ORGANIZATION_SORT_FIELDS = ['title', 'created_at'] as const;

/** `GET organizations`, `organizations.list`: server paging, search on the title, sort. */
export const ZListOrganizationsInput = z.object({
  ...pageShape,
  search: lineText('search').optional(),
  sortBy: z.enum(ORGANIZATION_SORT_FIELDS, { error: `sortBy must be one of ${ORGANIZATION_SORT_FIELDS.join(', ')}` }).default('created_at'),
  desc: ZBooleanish.default(true),
});
export type TListOrganizationsInput = z.input<typeof ZListOrganizationsInput>;
export type TListOrganizationsQuery = z.output<typeof ZListOrganizationsInput>;

/** `GET organization/find?organization=`: titles containing the text (those starting with it first), at most 20. */
export const ZFindOrganizationsInput = z.object({ organization: lineText('organization').default('') });
export type TFindOrganizationsInput = z.input<typeof ZFindOrganizationsInput>;
export const FIND_ORGANIZATIONS_LIMIT = 20;

/** `GET organization/{id}/sub-orgs`: the direct sub-organizations, paged. */
export const ZSubOrganizationsInput = z.object({ ...pageShape });
export type TSubOrganizationsQuery = z.output<typeof ZSubOrganizationsInput>;

/** the members tab: paged, search on username, names and e-mail */
export const ZOrganizationMembersInput = z.object({ ...pageShape, search: lineText('search').optional() });
export type TOrganizationMembersQuery = z.output<typeof ZOrganizationMembersInput>;

export const ACCOUNT_ORGANIZATION_SORT_FIELDS = ['created_at', 'org_title'] as const;

/** `GET account/{id}/organizations-and-roles`: the account's 'Organization association' tab. */
export const ZAccountOrganizationsInput = z.object({
  ...pageShape,
  sortBy: z.enum(ACCOUNT_ORGANIZATION_SORT_FIELDS, { error: `sortBy must be one of ${ACCOUNT_ORGANIZATION_SORT_FIELDS.join(', ')}` }).default('created_at'),
  desc: ZBooleanish.default(true),
});
export type TAccountOrganizationsQuery = z.output<typeof ZAccountOrganizationsInput>;

/** `POST organization/{id}/member` (our addition: 'Add a member') */
export const ZAddMemberInput = z.object({ account_id: ZAccountId });
/** `POST account/{account_id}/associate/organization` */
export const ZAssociateOrganizationInput = z.object({ organization_id: ZOrganizationId });

/** tRPC inputs: the REST inputs plus the ids REST carries in the path */
export const ZOrganizationByIdInput = z.object({ id: ZOrganizationId });
export const ZUpdateOrganizationInput = ZUpdateOrganizationDetailsInput.extend({ id: ZOrganizationId });
export const ZDeleteOrganizationInput = ZDeleteOrganizationChoices.extend({ id: ZOrganizationId });
export const ZSubOrganizationsOfInput = ZSubOrganizationsInput.extend({ id: ZOrganizationId });
export const ZOrganizationMembersOfInput = ZOrganizationMembersInput.extend({ id: ZOrganizationId });
export const ZOrganizationMemberInput = z.object({ id: ZOrganizationId, account_id: ZAccountId });
export const ZOrganizationsOfAccountInput = ZAccountOrganizationsInput.extend({ account_id: ZAccountId });

/** An organization (spec section 3). `unique_id` is the id; `active` is always 1 (there is no inactive organization). */
export const ZOrganization = z.object({
  id: answerId(),
  title: answerText(TEXT_MAX),
  description: answerText(ORGANIZATION_DESCRIPTION_MAX),
  unique_id: answerId(),
  active: z.literal(1),
  protected: z.boolean(),
  parent_id: answerId().nullable(),
  parent_title: answerText(TEXT_MAX).nullable(),
  num_children: z.number().int(),
  num_members: z.number().int(),
  created_at: answerTimestamp(),
  updated_at: answerTimestamp(),
});
export type TOrganization = z.infer<typeof ZOrganization>;

export const ZOrganizationSearchItem = z.object({ id: answerId(), title: answerText(TEXT_MAX) });
export type TOrganizationSearchItem = z.infer<typeof ZOrganizationSearchItem>;

/** a row of the Sub-organizations tab */
export const ZSubOrganization = z.object({
  id: answerId(),
  title: answerText(TEXT_MAX),
  parent_title: answerText(TEXT_MAX),
  num_members: z.number().int(),
  created_at: answerTimestamp(),
  protected: z.boolean(),
});
export type TSubOrganization = z.infer<typeof ZSubOrganization>;

/** a role of a member within the organization (role-schemas.ts has the roles themselves) */
export const ZMemberRole = z.object({ id: answerText(64), slug: answerText(TEXT_MAX) });
export type TMemberRole = z.infer<typeof ZMemberRole>;

/** a row of the Members tab; `created_at` is when the account joined */
export const ZOrganizationMember = z.object({
  id: answerId(),
  status_id: z.number().int(),
  status_title: answerText(),
  first_name: answerText(DOMAIN_CHECKED_TEXT_MAX),
  last_name: answerText(DOMAIN_CHECKED_TEXT_MAX),
  username_readable: answerText(TEXT_MAX),
  roles: z.array(ZMemberRole),
  created_at: answerTimestamp(),
  protected: z.boolean(),
});
export type TOrganizationMember = z.infer<typeof ZOrganizationMember>;

/** a switch in the account tab's expanded organization row: every role of that organization, `associated` 1 when the account holds it */
export const ZAccountOrganizationRole = z.object({ id: answerText(64), slug: answerText(TEXT_MAX), title: answerText(TEXT_MAX), associated: z.literal([0, 1]) });
export type TAccountOrganizationRole = z.infer<typeof ZAccountOrganizationRole>;

/** a row of the account's 'Organization association' tab; `created_at` is when it joined */
export const ZAccountOrganization = z.object({
  id: answerId(),
  org_title: answerText(TEXT_MAX),
  created_at: answerTimestamp(),
  roles: z.array(ZAccountOrganizationRole),
});
export type TAccountOrganization = z.infer<typeof ZAccountOrganization>;

/** `GET`/`PUT organization/{id}/time-zone` (ours): the organization's own zone, null when it has none */
export const ZOrganizationTimeZone = z.object({ time_zone: answerText(64).nullable() });
