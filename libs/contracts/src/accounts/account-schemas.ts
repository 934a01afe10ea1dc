import { z } from 'zod';
import { dateOf, dateOrDateTimeOf } from '../common/dates';
import { fieldRule } from '../errors/field-rule-codes';
import { answerId, answerTimestamp } from '../common/answers';
import { answerText, boundedText, DOMAIN_CHECKED_TEXT_MAX, emailOf, lineText, requiredLine, TEXT_MAX, uuidOf } from '../common/text';
import { ACCOUNT_STATUS_IDS } from './account-status';

/** The spec's 255 counters are server rules too (../common/text.ts). */
export { TEXT_MAX };

const required = (field: string) => requiredLine(field, TEXT_MAX, `${field} must be text`);

export const USERNAME_PATTERN = /^[a-zA-Z0-9._@-]+$/;

export const ZUsername = required('Username')
  .min(3, { error: 'Username must be at least 3 characters' })
  .regex(USERNAME_PATTERN, { error: 'Username may contain ASCII letters (a-z, A-Z), digits and . _ @ - only' });

export const ZEmail = emailOf('E-mail');

/** Date as year-month-day: a real one (no 2030-02-30). */
export const ZIsoDate = dateOf('Date', 'Date must be a real date as YYYY-MM-DD');

/** A policy id travels as text in the spec ("policy id is sent as text when numeric"). */
export const ZPolicyId = z.union([lineText('policy_id', 64), z.number().int().positive()]).transform((v) => String(v));

/**
 * The create-account model of the spec (console-accounts.md sections 2-5). Unknown fields are refused
 * so a typo never silently drops data.
 */
export const ZCreateAccountInput = z
  .strictObject({
    first_name: required('First name'),
    last_name: required('Last name'),
    email: ZEmail,
    organization: z.union([lineText('organization', 64), z.number().int()]).nullish(),
    username: ZUsername,
    password: boundedText('Password', TEXT_MAX, { secret: true }).nullish(),
    policy_id: ZPolicyId.nullish(),
    expires_at: dateOrDateTimeOf('expires_at', 'expires_at must be a real date (YYYY-MM-DD) or an ISO-8601 date-time with a zone').nullish(),
    no_password: z.boolean().default(false),
    activation: z.boolean().default(false),
    policy: z.boolean().default(false),
    expiry: z.boolean().default(false),
  })
  // runs even when fields are broken, so `{}` hears about the password with the other fields
  .superRefine((input, ctx) => {
    if (typeof input !== 'object' || input === null) return;
    if (input.password != null && typeof input.password !== 'string') return;
    if (!input.no_password && !input.password) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: 'Password is required unless the account is created without one', params: fieldRule('required', { label: 'Password' }) });
    }
    if (!input.no_password && input.password && input.password.length < 8) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: 'Password must be at least 8 characters', params: fieldRule('too_short', { label: 'Password', min: 8 }) });
    }
    // a policy is enforced only with policy: true, also on an account created without a password (its
    // first password, set at activation or by an administrator, must then meet it); a policy_id sent
    // without policy: true would be dropped, so it is refused instead
    if (input.policy && !input.policy_id) {
      ctx.addIssue({ code: 'custom', path: ['policy_id'], message: 'Pick a password policy or turn enforcement off', params: fieldRule('required', { label: 'Password policy' }) });
    }
    if (!input.policy && input.policy_id != null && input.policy_id !== '') {
      ctx.addIssue({ code: 'custom', path: ['policy_id'], message: 'policy_id applies only with policy: true; turn enforcement on or leave policy_id out', params: fieldRule('only_with', { label: 'Password policy', other: 'Enforce password policy' }) });
    }
    if (input.expiry && !input.expires_at) {
      ctx.addIssue({ code: 'custom', path: ['expires_at'], message: 'Pick an expiry date or turn expiry off', params: fieldRule('required', { label: 'Expiry date' }) });
    }
  }, { when: () => true });
export type TCreateAccountInput = z.input<typeof ZCreateAccountInput>;
export type TCreateAccountCommandInput = z.output<typeof ZCreateAccountInput>;

export const ACCOUNT_SORT_FIELDS = ['created_at', 'username', 'first_name', 'last_name', 'email', 'status_id', 'last_login_at'] as const;
export const PAGE_SIZE_OPTIONS = [10, 20, 30] as const;

export const ZBooleanish = z.union([z.boolean(), z.enum(['true', 'false', '1', '0'])]).transform((v) => v === true || v === 'true' || v === '1');

/** Query of `GET accounts` and `accounts.list`: server paging, search, status filter, sort. */
export const ZListAccountsInput = z.object({
  page: z.coerce.number({ error: 'page must be a number' }).int().min(1, { error: 'page starts at 1' }).default(1),
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(100, { error: 'limit may be at most 100' }).default(10),
  search: lineText('search').optional(),
  status: z
    .union([z.coerce.number().int(), z.array(z.coerce.number().int())])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .pipe(z.array(z.number().refine((id) => (ACCOUNT_STATUS_IDS as number[]).includes(id), { error: 'unknown account status', params: fieldRule('one_of', { label: 'Status', values: ACCOUNT_STATUS_IDS.join(', ') }) })))
    .optional(),
  sortBy: z.enum(ACCOUNT_SORT_FIELDS, { error: `sortBy must be one of ${ACCOUNT_SORT_FIELDS.join(', ')}` }).default('created_at'),
  desc: ZBooleanish.default(true),
});
export type TListAccountsInput = z.input<typeof ZListAccountsInput>;
export type TListAccountsQuery = z.output<typeof ZListAccountsInput>;

export const ZAccountId = uuidOf('account id', 'account id must be a UUID');

/** `GET account/statuses`: every status with its English label (the console translates by id) */
export const ZAccountStatusItem = z.object({ id: z.literal(ACCOUNT_STATUS_IDS), label: answerText() });
export type TAccountStatusItem = z.infer<typeof ZAccountStatusItem>;

/** the largest profile picture, decoded */
export const PROFILE_PICTURE_MAX_BYTES = 512 * 1024;
/** the JSON body limit: no picture longer than this ever arrives, the API measures the decoded bytes */
export const PROFILE_PICTURE_DATA_URL_MAX = 1024 * 1024;

/** A row of `GET accounts`. */
export const ZAccountListItem = z.object({
  id: answerId(),
  username: answerText(TEXT_MAX),
  username_readable: answerText(TEXT_MAX),
  first_name: answerText(DOMAIN_CHECKED_TEXT_MAX),
  last_name: answerText(DOMAIN_CHECKED_TEXT_MAX),
  email: answerText(DOMAIN_CHECKED_TEXT_MAX),
  status_id: z.number().int(),
  status_title: answerText(),
  protected: z.boolean(),
  created_at: answerTimestamp(),
  last_login_at: answerTimestamp().nullable(),
  expires_at: answerTimestamp().nullable(),
});
export type TAccountListItem = z.infer<typeof ZAccountListItem>;

const ZContactAnswer = z.array(z.object({ value: answerText(DOMAIN_CHECKED_TEXT_MAX), type: answerText(DOMAIN_CHECKED_TEXT_MAX) }));
const profileAnswer = () => answerText(DOMAIN_CHECKED_TEXT_MAX).nullable().optional();

/** An account with its profile (`GET account/{id}`; v2 answers it as `{account}`). */
export const ZAccount = ZAccountListItem.extend({
  policy_id: answerText(64).nullable(),
  additional: z.object({
    address: profileAnswer(),
    birth_date: profileAnswer(),
    email: ZContactAnswer,
    gender: profileAnswer(),
    locale: profileAnswer(),
    middle_name: profileAnswer(),
    nickname: profileAnswer(),
    profile: profileAnswer(),
    telephone: ZContactAnswer,
    time_zone: profileAnswer(),
    website: profileAnswer(),
    /** a data URL (PROFILE_PICTURE_DATA_URL_MAX) */
    profilePicture: answerText(PROFILE_PICTURE_DATA_URL_MAX).nullable().optional(),
  }),
});
export type TAccount = z.infer<typeof ZAccount>;

/** v2's `GET`/`PUT account/{id}` answer the account as `{account}` (inside `{data}`) */
export const ZAccountV2Answer = z.object({ account: ZAccount });

/** The paged list shape of v1 (and of v2 inside its `data` envelope). */
export interface TPage<T> {
  data: T[];
  total: number;
  from: number | null;
  to: number | null;
  last_page: number;
  current_page: number;
  per_page: number;
}

/** The zod twin of TPage: a page of `item`. */
export const ZPage = <Item extends z.ZodType>(item: Item) =>
  z.object({
    data: z.array(item),
    total: z.number().int(),
    from: z.number().int().nullable(),
    to: z.number().int().nullable(),
    last_page: z.number().int(),
    current_page: z.number().int(),
    per_page: z.number().int(),
  });

export function toPage<T>(rows: T[], total: number, page: number, perPage: number): TPage<T> {
  const from = rows.length ? (page - 1) * perPage + 1 : null;
  return {
    data: rows,
    total,
    from,
    to: from === null ? null : from + rows.length - 1,
    last_page: Math.max(1, Math.ceil(total / perPage)),
    current_page: page,
    per_page: perPage,
  };
}

/** a profile text whose length rule is the domain's (`account.profile_too_long`): bounded here only against abuse */
const profileText = (field: string, multiline = false) => boundedText(field, DOMAIN_CHECKED_TEXT_MAX, { multiline });
const optionalText = (field: string, multiline = false) => profileText(field, multiline).nullish();
const ZContactEntry = z.strictObject({
  value: boundedText('Value', TEXT_MAX, { trim: true, typeError: 'Enter a value', tooLong: `At most ${TEXT_MAX} characters` }).min(1, { error: 'Enter a value or remove this row' }),
  type: lineText('The type', 64, 'Choose a type'),
});

/**
 * `PUT account/{id}`: the profile form (spec sections 2-5). Only types are checked here; the
 * domain's profile rules answer every broken field at once. Empty text means 'not set'.
 * `additional` carries the contact lists; left out, they keep their entries.
 */
export const ZUpdateAccountProfileInput = z.strictObject({
  first_name: profileText('First name'),
  last_name: profileText('Last name'),
  email: profileText('E-mail'),
  middle_name: optionalText('Middle name'),
  nickname: optionalText('Nickname'),
  birth_date: optionalText('Birth date'),
  gender: optionalText('Gender'),
  time_zone: optionalText('Time zone'),
  locale: optionalText('Locale'),
  website: optionalText('Website'),
  profile: optionalText('Profile'),
  address: optionalText('Address', true),
  additional: z
    .strictObject({
      telephone: z.array(ZContactEntry).max(20, { error: 'At most 20 telephone numbers' }).optional(),
      email: z.array(ZContactEntry).max(20, { error: 'At most 20 e-mail addresses' }).optional(),
    })
    .optional(),
});
export type TUpdateAccountProfileInput = z.input<typeof ZUpdateAccountProfileInput>;

/** `PATCH account/{id}/profile-picture`: a data URL of a PNG, JPEG, WebP or GIF image (checked by the API), or null to remove the picture. */
export const ZProfilePictureInput = z.strictObject({
  picture: boundedText('Picture', PROFILE_PICTURE_DATA_URL_MAX, { typeError: 'Picture must be a data URL or null', tooLong: 'Picture may be at most 512 KB' }).nullable(),
});
export type TProfilePictureInput = z.infer<typeof ZProfilePictureInput>;
export const PROFILE_PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;

/** `account/find?username=` and friends: a case-insensitive prefix, at most 20 answers. */
export const ZFindAccountsByUsernameInput = z.object({ username: lineText('username', TEXT_MAX, 'username is required').default('') });
export const FIND_ACCOUNTS_LIMIT = 20;
export const ZAccountSearchItem = z.object({
  id: answerId(),
  username: answerText(TEXT_MAX),
  username_readable: answerText(TEXT_MAX),
  first_name: answerText(DOMAIN_CHECKED_TEXT_MAX),
  last_name: answerText(DOMAIN_CHECKED_TEXT_MAX),
});
export type TAccountSearchItem = z.infer<typeof ZAccountSearchItem>;

/** Auth info of an account (spec section 3): policy_id is text, null when no policy is enforced. */
export const ZAccountAuth = z.object({
  username: answerText(TEXT_MAX),
  policy_id: answerText(64).nullable(),
  status_id: z.number().int(),
  /** beyond the spec: the end of a lockout (ISO), null when the account is not locked */
  locked_until: answerTimestamp().nullable(),
});
export type TAccountAuth = z.infer<typeof ZAccountAuth>;

const ZStatusId = z.coerce
  .number({ error: 'Status must be a number' })
  .int({ error: 'Status must be a whole number' })
  .refine((id) => (ACCOUNT_STATUS_IDS as number[]).includes(id), { error: `Status must be one of ${ACCOUNT_STATUS_IDS.join(', ')}`, params: fieldRule('one_of', { values: ACCOUNT_STATUS_IDS.join(', ') }) });

/**
 * `PUT account/{id}/auth`. The console re-reads the auth info and writes it back with one field
 * replaced; a field left out keeps its value. `policy_id` null (or empty text) enforces no policy.
 * `username` may be echoed back but not changed here; `account_id` (sent by the spec's tab) is ignored.
 */
export const ZAccountAuthInput = z.strictObject({
  status_id: ZStatusId.optional(),
  policy_id: z
    .union([lineText('policy_id', 64), z.number().int().positive()])
    .nullable()
    .optional()
    .transform((v) => (v === undefined ? undefined : v === null || v === '' ? null : String(v))),
  username: lineText('username').optional(),
  account_id: z.union([lineText('account_id', 64), z.number()]).optional(),
  /** read-only (the lock ends through POST account/{id}/unlock); accepted so a read auth info can be written back whole */
  locked_until: lineText('locked_until', 64).nullable().optional(),
});
export type TAccountAuthInput = z.input<typeof ZAccountAuthInput>;
export type TAccountAuthCommandInput = z.output<typeof ZAccountAuthInput>;

const ZNewPassword = (field: string) => boundedText(field, TEXT_MAX, { typeError: `${field} is required`, secret: true }).min(1, { error: `${field} is required` });

/** `PUT`/`PATCH account/{id}/password`: an administrator sets a password. */
export const ZSetPasswordInput = z.strictObject({ password: ZNewPassword('Password') });
export type TSetPasswordInput = z.infer<typeof ZSetPasswordInput>;

/** `POST account/password/change`: the signed-in account changes its own password. */
export const ZChangeOwnPasswordInput = z.strictObject({ current_password: ZNewPassword('Current password'), new_password: ZNewPassword('New password') });
export type TChangeOwnPasswordInput = z.infer<typeof ZChangeOwnPasswordInput>;
