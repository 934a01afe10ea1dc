/**
 * Used by the OpenID Connect provider (apps/api/src/features/oidc: its findAccount `claims()` for the ID token
 * and userinfo) to learn what an account releases for the scopes granted; the tab's own reads use
 * the same table (docs/adr/0014, 'Claims').
 */
import { SSO_CLAIM_SCOPES } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import type { ReadDatabase } from '../../platform/read-db/read-database';

/** The profile fields a fallback may name, read from the accounts read model. */
type ProfileFields = Record<string, string | null>;

function profileFields(row: { first_name: string; last_name: string; additional: string }): ProfileFields {
  const additional = JSON.parse(row.additional) as Record<string, unknown>;
  const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);
  const telephone = Array.isArray(additional.telephone) ? (additional.telephone as Array<{ value?: unknown }>) : [];
  return {
    first_name: text(row.first_name),
    last_name: text(row.last_name),
    middle_name: text(additional.middle_name),
    nickname: text(additional.nickname),
    profile: text(additional.profile),
    website: text(additional.website),
    gender: text(additional.gender),
    birth_date: text(additional.birth_date),
    time_zone: text(additional.time_zone),
    locale: text(additional.locale),
    address: text(additional.address),
    // the first telephone entry is the one the profile lists first
    telephone: text(telephone[0]?.value),
  };
}

/** A fallback names one profile field, or several joined by a space ('first_name last_name'). */
function fallbackValue(fallback: string | null, profile: ProfileFields): string | null {
  if (!fallback) return null;
  const parts = fallback
    .split(' ')
    .map((field) => profile[field] ?? null)
    .filter((value): value is string => value !== null);
  return parts.length ? parts.join(' ') : null;
}

/** What the profile releases for each catalogue claim while no value is set for it (null: nothing). */
export function profileFallbacks(account: { first_name: string; last_name: string; additional: string }): Record<string, string | null> {
  const profile = profileFields(account);
  return Object.fromEntries(SSO_CLAIM_SCOPES.flatMap((group) => group.members.map((member) => [member.claim, fallbackValue(member.fallback, profile)])));
}

/**
 * The claims an account releases for the granted scopes (OpenID Connect Core 1.0 section 5.4):
 * - always `sub` (the account id);
 * - `profile`: `preferred_username` (the username) and every profile member of SSO_CLAIM_SCOPES;
 * - `address`: `address` as `{ formatted }`; `phone`: `phone_number`;
 * - `email`: `email` (the primary e-mail) and `email_verified`.
 * Each catalogue claim is the value set for the account (tab 10), else its profile fallback; a claim
 * with neither is left out. `email_verified` is false: Rollcall never checks that the person controls
 * the address (an administrator may change it at any time), and a relying party that links accounts
 * by e-mail must not take it as proven. `openid`, `roles` and application scopes add nothing here:
 * roles depend on the requesting application and are the provider's part.
 *
 * An unknown or deleted account releases nothing: `{}` (the caller refuses it anyway).
 */
export async function releasedSsoClaims(db: Kysely<ReadDatabase>, accountId: string, scopes: readonly string[]): Promise<Record<string, unknown>> {
  const account = await db.selectFrom('accounts_v2').select(['id', 'username', 'email', 'first_name', 'last_name', 'additional']).where('id', '=', accountId).executeTakeFirst();
  if (!account) return {};
  const granted = new Set(scopes);
  const released: Record<string, unknown> = { sub: account.id };
  if (granted.has('email')) {
    released.email = account.email;
    released.email_verified = false;
  }
  if (granted.has('profile')) released.preferred_username = account.username;

  const groups = SSO_CLAIM_SCOPES.filter((group) => granted.has(group.scope));
  if (!groups.length) return released;
  const set = new Map(
    (await db.selectFrom('account_sso_claims_v1').select(['claim', 'value']).where('account_id', '=', accountId).execute()).map((row) => [row.claim, row.value] as const),
  );
  const fallbacks = profileFallbacks(account);
  for (const group of groups) {
    for (const member of group.members) {
      const value = set.get(member.claim) ?? fallbacks[member.claim] ?? null;
      if (value === null) continue;
      released[member.claim] = member.claim === 'address' ? { formatted: value } : value;
    }
  }
  return released;
}
