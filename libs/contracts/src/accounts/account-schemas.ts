import { z } from 'zod';
import { ACCOUNT_STATUS_IDS } from './account-status';

/** The spec's 255 counters are server rules too. */
export const TEXT_MAX = 255;

const trimmed = (field: string) =>
  z
    .string({ error: `${field} must be text` })
    .trim()
    .max(TEXT_MAX, { error: `${field} may be at most ${TEXT_MAX} characters` });

const required = (field: string) => trimmed(field).min(1, { error: `${field} is required` });

export const USERNAME_PATTERN = /^[a-zA-Z0-9._@-]+$/;

export const ZUsername = required('Username')
  .min(3, { error: 'Username must be at least 3 characters' })
  .regex(USERNAME_PATTERN, { error: 'Username may contain letters, digits and . _ @ - only' });

export const ZEmail = required('E-mail').pipe(z.email({ error: 'E-mail must be a valid e-mail address' }));

/** Date as year-month-day. */
export const ZIsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Date must be YYYY-MM-DD' });

/** A policy id travels as text in the spec ("policy id is sent as text when numeric"). */
export const ZPolicyId = z.union([z.string().trim().max(64), z.number().int().positive()]).transform((v) => String(v));

/**
 * The create-account model of the spec (console-accounts.md sections 2-5). Unknown fields are refused
 * so a typo never silently drops data.
 */
export const ZCreateAccountInput = z
  .strictObject({
    first_name: required('First name'),
    last_name: required('Last name'),
    email: ZEmail,
    organization: z.union([z.string().max(64), z.number().int()]).nullish(),
    username: ZUsername,
    password: z.string().max(TEXT_MAX, { error: `Password may be at most ${TEXT_MAX} characters` }).nullish(),
    policy_id: ZPolicyId.nullish(),
    expires_at: z.union([ZIsoDate, z.iso.datetime({ offset: true })]).nullish(),
    no_password: z.boolean().default(false),
    activation: z.boolean().default(false),
    policy: z.boolean().default(false),
    expiry: z.boolean().default(false),
  })
  .superRefine((input, ctx) => {
    if (!input.no_password && !input.password) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: 'Password is required unless the account is created without one' });
    }
    if (!input.no_password && input.password && input.password.length < 8) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: 'Password must be at least 8 characters' });
    }
    if (input.policy && !input.no_password && !input.policy_id) {
      ctx.addIssue({ code: 'custom', path: ['policy_id'], message: 'Pick a password policy or turn enforcement off' });
    }
    if (input.expiry && !input.expires_at) {
      ctx.addIssue({ code: 'custom', path: ['expires_at'], message: 'Pick an expiry date or turn expiry off' });
    }
  });
export type TCreateAccountInput = z.input<typeof ZCreateAccountInput>;
export type TCreateAccountCommandInput = z.output<typeof ZCreateAccountInput>;

export const ACCOUNT_SORT_FIELDS = ['created_at', 'username', 'first_name', 'last_name', 'email', 'status_id', 'last_login_at'] as const;
export const PAGE_SIZE_OPTIONS = [10, 20, 30] as const;

export const ZBooleanish = z.union([z.boolean(), z.enum(['true', 'false', '1', '0'])]).transform((v) => v === true || v === 'true' || v === '1');

/** Query of `GET accounts` and `accounts.list`: server paging, search, status filter, sort. */
export const ZListAccountsInput = z.object({
  page: z.coerce.number({ error: 'page must be a number' }).int().min(1, { error: 'page starts at 1' }).default(1),
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(100, { error: 'limit may be at most 100' }).default(10),
  search: z.string().trim().max(TEXT_MAX).optional(),
  status: z
    .union([z.coerce.number().int(), z.array(z.coerce.number().int())])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .pipe(z.array(z.number().refine((id) => (ACCOUNT_STATUS_IDS as number[]).includes(id), { error: 'unknown account status' })))
    .optional(),
  sortBy: z.enum(ACCOUNT_SORT_FIELDS, { error: `sortBy must be one of ${ACCOUNT_SORT_FIELDS.join(', ')}` }).default('created_at'),
  desc: ZBooleanish.default(true),
});
export type TListAccountsInput = z.input<typeof ZListAccountsInput>;
export type TListAccountsQuery = z.output<typeof ZListAccountsInput>;

export const ZAccountId = z.string().uuid({ error: 'account id must be a UUID' });

export interface TAccountListItem {
  id: string;
  username: string;
  username_readable: string;
  first_name: string;
  last_name: string;
  email: string;
  status_id: number;
  status_title: string;
  protected: boolean;
  created_at: string;
  last_login_at: string | null;
  expires_at: string | null;
}

export interface TAccount extends TAccountListItem {
  policy_id: string | null;
  additional: {
    address?: string | null;
    birth_date?: string | null;
    email: Array<{ value: string; type: string }>;
    gender?: string | null;
    locale?: string | null;
    middle_name?: string | null;
    nickname?: string | null;
    profile?: string | null;
    telephone: Array<{ value: string; type: string }>;
    time_zone?: string | null;
    website?: string | null;
    profilePicture?: string | null;
  };
}

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

const optionalText = (field: string) => z.string({ error: `${field} must be text` }).nullish();
const ZContactEntry = z.strictObject({
  value: z.string({ error: 'Enter a value' }).trim().min(1, { error: 'Enter a value or remove this row' }).max(TEXT_MAX, { error: `At most ${TEXT_MAX} characters` }),
  type: z.string({ error: 'Choose a type' }).trim().max(64, { error: 'The type may be at most 64 characters' }),
});

/**
 * `PUT account/{id}`: the profile form (spec sections 2-5). Only types are checked here; the
 * domain's profile rules answer every broken field at once. Empty text means 'not set'.
 * `additional` carries the contact lists; left out, they keep their entries.
 */
export const ZUpdateAccountProfileInput = z.strictObject({
  first_name: z.string({ error: 'First name must be text' }),
  last_name: z.string({ error: 'Last name must be text' }),
  email: z.string({ error: 'E-mail must be text' }),
  middle_name: optionalText('Middle name'),
  nickname: optionalText('Nickname'),
  birth_date: optionalText('Birth date'),
  gender: optionalText('Gender'),
  time_zone: optionalText('Time zone'),
  locale: optionalText('Locale'),
  website: optionalText('Website'),
  profile: optionalText('Profile'),
  address: optionalText('Address'),
  additional: z
    .strictObject({
      telephone: z.array(ZContactEntry).max(20, { error: 'At most 20 telephone numbers' }).optional(),
      email: z.array(ZContactEntry).max(20, { error: 'At most 20 e-mail addresses' }).optional(),
    })
    .optional(),
});
export type TUpdateAccountProfileInput = z.input<typeof ZUpdateAccountProfileInput>;

/** A data URL of a PNG, JPEG, WebP or GIF image (checked by the API), or null to remove the picture. */
export const ZProfilePictureInput = z.strictObject({ picture: z.string({ error: 'Picture must be a data URL or null' }).nullable() });
export type TProfilePictureInput = z.infer<typeof ZProfilePictureInput>;
export const PROFILE_PICTURE_MAX_BYTES = 512 * 1024;
export const PROFILE_PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;

/** `account/find?username=` and friends: a case-insensitive prefix, at most 20 answers. */
export const ZFindAccountsByUsernameInput = z.object({ username: z.string({ error: 'username is required' }).trim().max(TEXT_MAX).default('') });
export const FIND_ACCOUNTS_LIMIT = 20;
export interface TAccountSearchItem {
  id: string;
  username: string;
  username_readable: string;
  first_name: string;
  last_name: string;
}

/** Auth info of an account (spec section 3): policy_id is text, null when no policy is enforced. */
export interface TAccountAuth {
  username: string;
  policy_id: string | null;
  status_id: number;
  /** beyond the spec: the end of a lockout (ISO), null when the account is not locked */
  locked_until: string | null;
}

const ZStatusId = z.coerce
  .number({ error: 'Status must be a number' })
  .int({ error: 'Status must be a whole number' })
  .refine((id) => (ACCOUNT_STATUS_IDS as number[]).includes(id), { error: `Status must be one of ${ACCOUNT_STATUS_IDS.join(', ')}` });

/**
 * `PUT account/{id}/auth`. The console re-reads the auth info and writes it back with one field
 * replaced; a field left out keeps its value. `policy_id` null (or empty text) enforces no policy.
 * `username` may be echoed back but not changed here; `account_id` (sent by the spec's tab) is ignored.
 */
export const ZAccountAuthInput = z.strictObject({
  status_id: ZStatusId.optional(),
  policy_id: z
    .union([z.string().trim().max(64), z.number().int().positive()])
    .nullable()
    .optional()
    .transform((v) => (v === undefined ? undefined : v === null || v === '' ? null : String(v))),
  username: z.string().trim().max(TEXT_MAX).optional(),
  account_id: z.union([z.string(), z.number()]).optional(),
  /** read-only (the lock ends through POST account/{id}/unlock); accepted so a read auth info can be written back whole */
  locked_until: z.string().nullable().optional(),
});
export type TAccountAuthInput = z.input<typeof ZAccountAuthInput>;
export type TAccountAuthCommandInput = z.output<typeof ZAccountAuthInput>;

const ZNewPassword = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .min(1, { error: `${field} is required` })
    .max(TEXT_MAX, { error: `${field} may be at most ${TEXT_MAX} characters` });

/** `PUT`/`PATCH account/{id}/password`: an administrator sets a password. */
export const ZSetPasswordInput = z.strictObject({ password: ZNewPassword('Password') });
export type TSetPasswordInput = z.infer<typeof ZSetPasswordInput>;

/** `POST account/password/change`: the signed-in account changes its own password. */
export const ZChangeOwnPasswordInput = z.strictObject({ current_password: ZNewPassword('Current password'), new_password: ZNewPassword('New password') });
export type TChangeOwnPasswordInput = z.infer<typeof ZChangeOwnPasswordInput>;
