import { z } from 'zod';
import { ZAccountId, ZBooleanish } from '../accounts/account-schemas';
import { dateOrDateTimeOf } from '../common/dates';
import { fieldRule } from '../errors/field-rule-codes';
import { answerId, answerTimestamp } from '../common/answers';
import { answerText, boundedText, requiredLine, TEXT_MAX, TOKEN_TEXT_MAX, uuidOf } from '../common/text';
import { ZSystemPermission } from '../permissions/system-permissions';

/** Every token starts with this, so a leaked one is recognisable (secret scanners) and the guard knows its kind. */
export const ACCESS_TOKEN_PREFIX = 'rc_';
export const ACCESS_TOKEN_RESTRICTIONS_MAX = 50;

/** One IP restriction: an IPv4/IPv6 address or a CIDR range. */
export const ZIpRestriction = boundedText('An IP restriction', 64, { trim: true })
  .pipe(z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()], { error: 'Each IP restriction must be an IPv4 or IPv6 address or a CIDR range such as 10.0.0.0/8' }));

/**
 * The token dialog's model (spec: title, forever, permissions, restrictions) plus the expiry the
 * dialog asks for when 'forever' is off. `token` is accepted for the spec's clients and ignored: the
 * server always generates the secret.
 */
const grantShape = {
  title: requiredLine('Title', TEXT_MAX),
  forever: z.boolean({ error: 'forever must be true or false' }).default(false),
  expires_at: dateOrDateTimeOf('expires_at', 'expires_at must be a real date (YYYY-MM-DD) or a date-time with offset').nullish(),
  permissions: z.array(ZSystemPermission, { error: 'Choose the permissions as a list of slugs' }).min(1, { error: 'Choose at least one permission' }),
  restrictions: z.array(ZIpRestriction).max(ACCESS_TOKEN_RESTRICTIONS_MAX, { error: `At most ${ACCESS_TOKEN_RESTRICTIONS_MAX} IP restrictions` }).default([]),
  token: z.unknown().optional(),
};

const requireExpiryUnlessForever = (input: { forever: boolean; expires_at?: string | null }, ctx: z.RefinementCtx) => {
  if (typeof input !== 'object' || input === null || typeof input.forever !== 'boolean') return;
  if (!input.forever && !input.expires_at) ctx.addIssue({ code: 'custom', path: ['expires_at'], message: 'Pick an expiry date or choose forever', params: fieldRule('required', { label: 'Expiry date' }) });
};

// the rule runs even when fields are broken, so one answer names every broken field
const always = { when: () => true };
export const ZCreateAccessTokenInput = z.object({ ...grantShape, account_id: ZAccountId }).superRefine(requireExpiryUnlessForever, always);
export type TCreateAccessTokenInput = z.input<typeof ZCreateAccessTokenInput>;

export const ZUpdateAccessTokenInput = z.object({ ...grantShape, id: z.unknown().optional(), account_id: z.unknown().optional() }).superRefine(requireExpiryUnlessForever, always);
export type TUpdateAccessTokenInput = z.input<typeof ZUpdateAccessTokenInput>;

export const ZAccessTokenId = uuidOf('token id', 'token id must be a UUID');

export const ACCESS_TOKEN_SORT_FIELDS = ['created_at', 'token_title', 'expires_at', 'last_used_at'] as const;

export const ZListAccessTokensInput = z.object({
  page: z.coerce.number({ error: 'page must be a number' }).int().min(1, { error: 'page starts at 1' }).default(1),
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(100, { error: 'limit may be at most 100' }).default(10),
  sortBy: z.enum(ACCESS_TOKEN_SORT_FIELDS, { error: `sortBy must be one of ${ACCESS_TOKEN_SORT_FIELDS.join(', ')}` }).default('created_at'),
  desc: ZBooleanish.default(true),
  account_id: ZAccountId.optional(),
});
export type TListAccessTokensInput = z.input<typeof ZListAccessTokensInput>;
export type TListAccessTokensQuery = z.output<typeof ZListAccessTokensInput>;

/** A token as lists show it: `unique_id` is the recognisable prefix, never the secret. */
export const ZAccessToken = z.object({
  id: answerId(),
  unique_id: answerText(TOKEN_TEXT_MAX),
  token_title: answerText(TEXT_MAX),
  account_id: answerId(),
  account_username: answerText(TEXT_MAX).nullable(),
  created_at: answerTimestamp(),
  updated_at: answerTimestamp(),
  expires_at: answerTimestamp().nullable(),
  last_used_at: answerTimestamp().nullable(),
  permissions: z.array(answerText(64)),
  restrictions: z.array(answerText(64)),
});
export type TAccessToken = z.infer<typeof ZAccessToken>;

/** The create answer, the only time the secret is shown: `token` and `unique_id` hold it. */
export const ZCreatedAccessToken = ZAccessToken.extend({ token: answerText(TOKEN_TEXT_MAX) });
export type TCreatedAccessToken = z.infer<typeof ZCreatedAccessToken>;
