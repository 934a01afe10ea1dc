import { z } from 'zod';
import { PROFILE_PICTURE_DATA_URL_MAX } from '../accounts/account-schemas';
import { answerId } from '../common/answers';
import { answerText, boundedText, DOMAIN_CHECKED_TEXT_MAX, requiredLine, TEXT_MAX, TOKEN_TEXT_MAX } from '../common/text';
import { ZSystemPermission } from '../permissions/system-permissions';

export const ZAuthenticateInput = z.strictObject({
  username: requiredLine('Username', TEXT_MAX),
  password: boundedText('Password', TEXT_MAX, { typeError: 'Password is required', secret: true }).min(1, { error: 'Password is required' }),
});
export type TAuthenticateInput = z.infer<typeof ZAuthenticateInput>;

/** Name of the session cookie (spec: user_session). */
export const SESSION_COOKIE = 'user_session';

/** `POST admin/authenticate`: the session's token; `password_change_required` when it may only change its password */
export const ZSignInAnswer = z.object({ token: answerText(TOKEN_TEXT_MAX), password_change_required: z.literal(true).optional() });
export type TSignInAnswer = z.infer<typeof ZSignInAnswer>;

/** System permissions held everywhere, anywhere at all, and per permission the organizations (subtrees included). */
export const ZGrants = z.object({
  everywhere: z.array(ZSystemPermission),
  anywhere: z.array(ZSystemPermission),
  within: z.partialRecord(ZSystemPermission, z.array(answerId())),
});
export type TGrants = z.infer<typeof ZGrants>;

/** `GET account/current` */
export const ZCurrentAccount = z.object({
  id: answerId(),
  first_name: answerText(DOMAIN_CHECKED_TEXT_MAX),
  last_name: answerText(DOMAIN_CHECKED_TEXT_MAX),
  username_readable: answerText(TEXT_MAX),
  additional: z.object({ profilePicture: answerText(PROFILE_PICTURE_DATA_URL_MAX).nullable() }),
  /** what the signed-in account may do, and where (docs/adr/0011): the console hides what it may not */
  grants: ZGrants,
});
export type TCurrentAccount = z.infer<typeof ZCurrentAccount>;
