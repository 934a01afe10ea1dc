import { z } from 'zod';
import { boundedText, requiredLine, TEXT_MAX } from '../common/text';
import type { SystemPermission } from '../permissions/system-permissions';

export const ZAuthenticateInput = z.strictObject({
  username: requiredLine('Username', TEXT_MAX),
  password: boundedText('Password', TEXT_MAX, { typeError: 'Password is required' }).min(1, { error: 'Password is required' }),
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
  /** what the signed-in account may do, and where (docs/adr/0011): the console hides what it may not */
  grants: TGrants;
}

/** System permissions held everywhere, anywhere at all, and per permission the organizations (subtrees included). */
export interface TGrants {
  everywhere: SystemPermission[];
  anywhere: SystemPermission[];
  within: Partial<Record<SystemPermission, string[]>>;
}
