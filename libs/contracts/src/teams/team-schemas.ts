import { z } from 'zod';
import { ZAccountId, ZBooleanish } from '../accounts/account-schemas';
import { answerId, answerTimestamp } from '../common/answers';
import { answerText, DOMAIN_CHECKED_TEXT_MAX, lineText, multilineText, requiredLine, TEXT_MAX, uuidOf } from '../common/text';

/**
 * Teams (console-directory.md sections 2-5 and 7, console-accounts.md tab 5 'Team association'): the
 * inputs of REST v1/v2 and tRPC and the shapes they answer. See docs/adr/0010.
 */
export const TEAM_DESCRIPTION_MAX = 2000;
/** the most first members one 'Create team' may carry */
export const TEAM_CREATE_ACCOUNTS_MAX = 500;

export const ZTeamId = uuidOf('team id', 'team id must be a UUID', 'team id is required');

const ZTeamTitle = requiredLine('Title', TEXT_MAX);

const pageShape = {
  page: z.coerce.number({ error: 'page must be a number' }).int().min(1, { error: 'page starts at 1' }).default(1),
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1, { error: 'limit must be at least 1' }).max(100, { error: 'limit may be at most 100' }).default(10),
};

/** An optional organization reference: empty text and null mean 'none' (forms send ''). */
const optionalOrganizationId = (field: string) =>
  z.preprocess((value) => (value === '' ? null : value), uuidOf(field, `${field} must be an organization id (UUID)`, `${field} must be an organization id`).nullish());

/**
 * `POST team`, `teams.create`: the 'Create new team' dialog. `organization` is required unless
 * `interorg` (a multi-organization team has none; one sent along is ignored). `accounts` are the
 * first members' ids.
 */
export const ZCreateTeamInput = z.object({
  title: ZTeamTitle,
  description: multilineText('Description', TEAM_DESCRIPTION_MAX)
    .nullish()
    .transform((value) => value ?? ''),
  interorg: ZBooleanish.default(false),
  organization: optionalOrganizationId('organization'),
  accounts: z
    .array(ZAccountId, { error: 'accounts must be a list of account ids' })
    .max(TEAM_CREATE_ACCOUNTS_MAX, { error: `At most ${TEAM_CREATE_ACCOUNTS_MAX} accounts at once` })
    .nullish()
    .transform((value) => value ?? []),
});
export type TCreateTeamInput = z.input<typeof ZCreateTeamInput>;
export type TCreateTeamCommandInput = z.output<typeof ZCreateTeamInput>;

/** `PATCH team/{id}/title`: the inline title edit */
export const ZRenameTeamInput = z.object({ title: ZTeamTitle });

export const TEAM_SORT_FIELDS = ['created_at', 'title'] as const;

/** `GET teams`, `teams.list`: server paging, search on the title, an organization's teams, sort. */
export const ZListTeamsInput = z.object({
  ...pageShape,
  search: lineText('search').optional(),
  organization_id: optionalOrganizationId('organization_id'),
  sortBy: z.enum(TEAM_SORT_FIELDS, { error: `sortBy must be one of ${TEAM_SORT_FIELDS.join(', ')}` }).default('created_at'),
  desc: ZBooleanish.default(true),
});
export type TListTeamsInput = z.input<typeof ZListTeamsInput>;
export type TListTeamsQuery = z.output<typeof ZListTeamsInput>;

/** `GET team/find?team=`: titles containing the text (those starting with it first), at most 20. */
export const ZFindTeamsInput = z.object({ team: lineText('team').default('') });
export type TFindTeamsInput = z.input<typeof ZFindTeamsInput>;
export const FIND_TEAMS_LIMIT = 20;

export const ACCOUNT_TEAM_SORT_FIELDS = ['association_created_at', 'team_title'] as const;

/** `GET account/{id}/teams`: the account's 'Team association' tab. */
export const ZAccountTeamsInput = z.object({
  ...pageShape,
  sortBy: z.enum(ACCOUNT_TEAM_SORT_FIELDS, { error: `sortBy must be one of ${ACCOUNT_TEAM_SORT_FIELDS.join(', ')}` }).default('association_created_at'),
  desc: ZBooleanish.default(true),
});
export type TAccountTeamsQuery = z.output<typeof ZAccountTeamsInput>;

/** `POST account/{id}/associate/team`: the spec sends the id as text */
export const ZAssociateTeamInput = z.object({ team_id: ZTeamId });

/** tRPC inputs: the REST inputs plus the ids REST carries in the path */
export const ZTeamByIdInput = z.object({ id: ZTeamId });
export const ZRenameTeamByIdInput = ZRenameTeamInput.extend({ id: ZTeamId });
export const ZTeamsOfAccountInput = ZAccountTeamsInput.extend({ account_id: ZAccountId });
export const ZTeamMemberInput = z.object({ team_id: ZTeamId, account_id: ZAccountId });

/**
 * A team (spec section 3). `organization` is the organization's id (null for a multi-organization
 * team, and also when its organization was deleted: docs/adr/0010); `organization_title` names it.
 * `accounts` (the members' ids) is part of `GET team/{id}` only, not of the list rows.
 */
export const ZTeam = z.object({
  id: answerId(),
  title: answerText(TEXT_MAX),
  description: answerText(TEAM_DESCRIPTION_MAX),
  interorg: z.boolean(),
  organization: answerId().nullable(),
  organization_title: answerText(TEXT_MAX).nullable(),
  num_members: z.number().int(),
  created_at: answerTimestamp(),
  updated_at: answerTimestamp(),
  protected: z.boolean(),
});
export type TTeam = z.infer<typeof ZTeam>;

export const ZTeamDetails = ZTeam.extend({ accounts: z.array(answerId()) });
export type TTeamDetails = z.infer<typeof ZTeamDetails>;

export const ZTeamSearchItem = z.object({ id: answerId(), title: answerText(TEXT_MAX) });
export type TTeamSearchItem = z.infer<typeof ZTeamSearchItem>;

/** a row of 'Associated accounts for a team' */
export const ZTeamMember = z.object({ id: answerId(), first_name: answerText(DOMAIN_CHECKED_TEXT_MAX), last_name: answerText(DOMAIN_CHECKED_TEXT_MAX), username_readable: answerText(TEXT_MAX) });
export type TTeamMember = z.infer<typeof ZTeamMember>;

/** a row of the account's 'Team association' tab; `association_created_at` is when it joined */
export const ZAccountTeam = z.object({ team_id: answerId(), team_title: answerText(TEXT_MAX), association_created_at: answerTimestamp() });
export type TAccountTeam = z.infer<typeof ZAccountTeam>;
