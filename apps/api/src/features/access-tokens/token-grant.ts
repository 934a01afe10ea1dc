import type { SystemPermission, TCreateAccessTokenInput } from '@rollcall/contracts';
import { DomainError, type AccessTokenGrant } from '@rollcall/domain';
import ipaddr from 'ipaddr.js';
import type { Kysely } from 'kysely';
import type { ReadDatabase } from '../../platform/read-db/read-database';
import { holdsAnywhere, scopeOf, type Grants } from '../../platform/access/grants';
import type { Principal } from '../../platform/access/principal';

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

/** Where and until when a token works: what a token-made token may not exceed. */
export interface TokenLimits {
  restrictions: readonly string[];
  /** ISO instant, or null for never */
  expiresAt: string | null;
}

/** A restriction as the range of addresses it admits, read the way addressAllowed (http/client-address) matches it. */
function rangeOf(restriction: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | null {
  if (!restriction.includes('/')) {
    if (!ipaddr.isValid(restriction)) return null;
    const address = ipaddr.process(restriction);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  }
  try {
    return ipaddr.parseCIDR(restriction);
  } catch {
    return null;
  }
}

/** Does every address `inner` admits also pass `outer`? */
export function restrictionWithin(inner: string, outer: string): boolean {
  const [a, b] = [rangeOf(inner), rangeOf(outer)];
  if (!a || !b) return false;
  const [[innerRange, innerBits], [outerRange, outerBits]] = [a, b];
  return innerRange.kind() === outerRange.kind() && innerBits >= outerBits && innerRange.match(outerRange, outerBits);
}

/**
 * A token that creates or edits a token (itself included) cannot hand out more time or more places
 * than it has (docs/adr/0007): when it expires, the new grant must expire too, no later; when it is
 * restricted to addresses, every restriction of the new grant must lie inside one of its own (an
 * empty list means anywhere, which is wider). Else a narrow token, leaked or not, would mint itself a
 * successor that works from everywhere, forever.
 */
export function assertWithinLimits(limits: TokenLimits, grant: AccessTokenGrant): void {
  if (limits.expiresAt !== null && (grant.expiresAt === null || Date.parse(grant.expiresAt) > Date.parse(limits.expiresAt))) {
    throw new DomainError('auth.forbidden', `An access token cannot give a token a later expiry than its own (${limits.expiresAt})`, 'expires_at');
  }
  if (limits.restrictions.length) {
    const beyond = grant.restrictions.length ? grant.restrictions.filter((restriction) => !limits.restrictions.some((own) => restrictionWithin(restriction, own))) : ['anywhere'];
    if (beyond.length) {
      throw new DomainError('auth.forbidden', `An access token cannot give a token addresses outside its own restrictions (${limits.restrictions.join(', ')}): ${beyond.join(', ')}`, 'restrictions');
    }
  }
}

/**
 * The limits of the calling token as stored now (null for a session: an administrator signed in is
 * not limited by a token's place or time). A caller token gone meanwhile has no limits to lend.
 */
export async function callerLimits(db: Kysely<ReadDatabase>, grantor: Principal): Promise<TokenLimits | null> {
  if (grantor.kind !== 'token') return null;
  const row = await db.selectFrom('access_tokens_v1').select(['restrictions', 'expires_at']).where('id', '=', grantor.tokenId).executeTakeFirst();
  if (!row) throw new DomainError('auth.forbidden', 'This access token no longer exists');
  return { restrictions: JSON.parse(row.restrictions) as string[], expiresAt: row.expires_at };
}
