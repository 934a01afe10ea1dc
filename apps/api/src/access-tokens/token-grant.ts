import type { SystemPermission, TCreateAccessTokenInput } from '@rollcall/contracts';
import { DomainError, type AccessTokenGrant } from '@rollcall/domain';
import { holdsAnywhere, scopeOf, type Grants } from '../auth/grants';
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

/**
 * A token for another account is never above its creator's own reach (docs/adr/0011): the token may
 * use a permission wherever its holder holds it, so the holder must hold each of the token's
 * permissions only where the creator holds it too. Else an organization administrator could mint,
 * for a member who holds more (here or elsewhere), a token that carries that more, and keep it.
 */
export function assertWithinReach(grantor: Principal, holder: Grants, permissions: readonly string[]): void {
  const beyond = permissions.filter((permission) => {
    const mine = scopeOf(grantor.grants, permission as SystemPermission);
    if (mine === 'everywhere') return false;
    const theirs = scopeOf(holder, permission as SystemPermission);
    return theirs === 'everywhere' || [...theirs].some((organization) => !mine.has(organization));
  });
  if (beyond.length) throw new DomainError('auth.forbidden', `This account holds these permissions beyond where you hold them, so a token with them would reach further than you: ${beyond.join(', ')}`, 'permissions');
}
