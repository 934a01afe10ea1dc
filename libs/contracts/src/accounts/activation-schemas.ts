import { z } from 'zod';
import { TEXT_MAX } from './account-schemas';

/** An activation link's token: 256 random bits, base64url (43 characters). Anything else is simply unknown. */
export const ZActivationToken = z.string().trim().min(1, { error: 'token is required' }).max(128, { error: 'token is too long' });

/** `POST account/activate`: the owner of an account awaiting activation sets the first password. */
export const ZActivateAccountInput = z.strictObject({
  token: ZActivationToken,
  password: z
    .string({ error: 'Password is required' })
    .min(1, { error: 'Password is required' })
    .max(TEXT_MAX, { error: `Password may be at most ${TEXT_MAX} characters` }),
});
export type TActivateAccountInput = z.infer<typeof ZActivateAccountInput>;

/** `GET account/activation/{token}`: whose link it is and the rules the password must meet. */
export interface TActivationInfo {
  username: string;
  expires_at: string;
  /** null: no policy is enforced, any password of 1-255 characters */
  policy: { title: string; min_length: number; min_strength: number; history: number | null } | null;
}
