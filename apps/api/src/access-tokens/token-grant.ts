import type { SystemPermission, TCreateAccessTokenInput } from '@rollcall/contracts';
import { DomainError, type AccessTokenGrant } from '@rollcall/domain';
import { holdsAnywhere } from '../auth/grants';
import type { Principal } from '../auth/principal';

type GrantInput = Pick<TCreateAccessTokenInput, 'title' | 'permissions' | 'restrictions' | 'expires_at'> & { forever: boolean };

/** The dialog's model as the decider's grant: 'forever' means no expiry; a bare date expires at its start (UTC). */
export function grantFromInput(input: GrantInput): AccessTokenGrant {
  const expiresAt = input.forever || !input.expires_at ? null : new Date(/^\d{4}-\d{2}-\d{2}$/.test(input.expires_at) ? `${input.expires_at}T00:00:00.000Z` : input.expires_at).toISOString();
  return { title: input.title, permissions: input.permissions, restrictions: input.restrictions ?? [], expiresAt };
}

/**
 * A token can never be given a permission its creator holds nowhere (docs/adr/0011): an access token
 * with tokens:write cannot mint a broader token, an organization administrator cannot hand out what
 * no role gives them. Where the token may use it is its own account's business: a token never
 * exceeds its holder (restrictGrants).
 */
export function assertMayGrant(grantor: Principal, permissions: readonly string[]): void {
  const beyond = permissions.filter((permission) => !holdsAnywhere(grantor.grants, permission as SystemPermission));
  if (beyond.length) throw new DomainError('auth.forbidden', `Permissions cannot be granted by one who does not hold them: ${beyond.join(', ')}`, 'permissions');
}
