import type { TAccountClaimGroup } from '@rollcall/contracts';

/** claim name -> the field's text ('' when no value is set) */
export type ClaimValues = Record<string, string>;

export function claimValuesOf(groups: readonly TAccountClaimGroup[]): ClaimValues {
  return Object.fromEntries(groups.flatMap((group) => group.members.map((member) => [member.claim, member.value ?? ''])));
}

/**
 * Only the claims whose field differs from what was loaded (the save sends nothing else, so two
 * administrators editing different claims do not undo each other); an emptied field is sent as null,
 * which clears the claim. Whitespace-only edits of the same text count as unchanged.
 */
export function changedClaims(loaded: ClaimValues, current: ClaimValues): Record<string, string | null> {
  const changes: Record<string, string | null> = {};
  for (const [claim, value] of Object.entries(current)) {
    const next = value.trim();
    if (next !== (loaded[claim] ?? '').trim()) changes[claim] = next === '' ? null : next;
  }
  return changes;
}

/**
 * The server's field errors by claim: the contracts name them 'claims.<claim>', the domain by the
 * claim alone. Anything else is left for a notice.
 */
export function claimErrors(fields: Record<string, string[]>, claims: readonly string[]): { byClaim: Record<string, string[]>; other: string[] } {
  const byClaim: Record<string, string[]> = {};
  const other: string[] = [];
  for (const [name, messages] of Object.entries(fields)) {
    const claim = name.startsWith('claims.') ? name.slice('claims.'.length) : name;
    if (claims.includes(claim)) (byClaim[claim] ??= []).push(...messages);
    else other.push(...messages);
  }
  return { byClaim, other };
}
