import { z } from 'zod';
import { answerTimestamp } from '../common/answers';
import { answerText, boundedText, TEXT_MAX } from '../common/text';

/** An activation link's token: 256 random bits, base64url (43 characters). Anything else is simply unknown. */
export const ZActivationToken = boundedText('token', 128, { trim: true, tooLong: 'token is too long' }).min(1, { error: 'token is required' });

/** `POST account/activate`: the owner of an account awaiting activation sets the first password. */
export const ZActivateAccountInput = z.strictObject({
  token: ZActivationToken,
  password: boundedText('Password', TEXT_MAX, { typeError: 'Password is required', secret: true }).min(1, { error: 'Password is required' }),
});
export type TActivateAccountInput = z.infer<typeof ZActivateAccountInput>;

/** `GET account/activation/{token}`: whose link it is and the rules the password must meet. */
export const ZActivationInfo = z.object({
  username: answerText(TEXT_MAX),
  expires_at: answerTimestamp(),
  /** null: no policy is enforced, any password of 1-255 characters */
  policy: z.object({ title: answerText(), min_length: z.number().int(), min_strength: z.number().int(), history: z.number().int().nullable() }).nullable(),
});
export type TActivationInfo = z.infer<typeof ZActivationInfo>;

/** `POST account/activate`: the account is active; its username, for the sign-in form */
export const ZActivatedAnswer = z.object({ message: answerText(), username: answerText(TEXT_MAX) });
export type TActivatedAnswer = z.infer<typeof ZActivatedAnswer>;
