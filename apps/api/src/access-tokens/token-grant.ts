import type { SystemPermission, TCreateAccessTokenInput } from '@rollcall/contracts';
import { DomainError, type AccessTokenGrant } from '@rollcall/domain';
import type { Principal } from '../auth/principal';

type GrantInput = Pick<TCreateAccessTokenInput, 'title' | 'permissions' | 'restrictions' | 'expires_at'> & { forever: boolean };

/** The dialog's model as the decider's grant: 'forever' means no expiry; a bare date expires at its start (UTC). */
export function grantFromInput(input: GrantInput): AccessTokenGrant {
  const expiresAt = input.forever || !input.expires_at ? null : new Date(/^\d{4}-\d{2}-\d{2}$/.test(input.expires_at) ? `${input.expires_at}T00:00:00.000Z` : input.expires_at).toISOString();
  return { title: input.title, permissions: input.permissions, restrictions: input.restrictions ?? [], expiresAt };
}

/**
 * A token can never grant more than the one who creates it holds: a session holds every permission
 * (until roles arrive), an access token only its own, so a token with tokens:write cannot mint a
 * broader token.
 */
export function assertMayGrant(grantor: Principal, permissions: readonly string[]): void {
  if (grantor.kind === 'session') return;
  const beyond = permissions.filter((permission) => !grantor.permissions.has(permission as SystemPermission));
  if (beyond.length) throw new DomainError('auth.forbidden', `An access token cannot grant permissions it does not hold: ${beyond.join(', ')}`, 'permissions');
}
