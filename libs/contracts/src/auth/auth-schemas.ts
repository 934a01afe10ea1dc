import { z } from 'zod';

export const ZAuthenticateInput = z.strictObject({
  username: z.string({ error: 'Username is required' }).trim().min(1, { error: 'Username is required' }).max(255),
  password: z.string({ error: 'Password is required' }).min(1, { error: 'Password is required' }).max(255),
});
export type TAuthenticateInput = z.infer<typeof ZAuthenticateInput>;

/** Name of the session cookie (spec: user_session). */
export const SESSION_COOKIE = 'user_session';

export interface TCurrentAccount {
  id: string;
  first_name: string;
  last_name: string;
  username_readable: string;
  additional: { profilePicture: string | null };
}
