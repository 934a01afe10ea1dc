import { z } from 'zod';
import { ZAccountId } from '../accounts/account-schemas';
import { answerText, TEXT_MAX } from '../common/text';
import { SSO_CLAIM_SCOPES, ZAccountClaimGroup, ZAccountClaimsInput, type TAccountClaimGroup } from './sso-claims';

/** tRPC `ssoClaims.ofAccount`: whose claims */
export const ZAccountClaimsByIdInput = z.object({ id: ZAccountId });

/** tRPC `ssoClaims.set`: the account and only the claims that changed (null or '' clears one) */
export const ZSetAccountClaimsInput = ZAccountClaimsInput.extend({ id: ZAccountId });
export type TSetAccountClaimsInput = z.input<typeof ZSetAccountClaimsInput>;

/** the notice after a save */
export const SSO_CLAIMS_SAVED_MESSAGE = 'Single sign-on claims saved';

/**
 * The tab's groups with the account's values: one group per scope of the catalogue, in its order,
 * each with its member count (console-accounts.md tab 10). `values` holds the claims set,
 * `fallbacks` what the profile releases for each claim while none is.
 */
export function accountClaimGroups(values: Readonly<Record<string, string>>, fallbacks: Readonly<Record<string, string | null>> = {}): TAccountClaimGroup[] {
  return SSO_CLAIM_SCOPES.map((group) => ({
    scope: group.scope,
    title: group.title,
    description: group.description,
    num_members: group.members.length,
    members: group.members.map((member) => ({ claim: member.claim, title: member.title, description: member.description, scope: group.scope, value: values[member.claim] ?? null, fallback_value: fallbacks[member.claim] ?? null })),
  }));
}

/**
 * v1 `GET account/{id}/claims` in the spec's words ('SSO claim: scope, title, description,
 * member_title, member_description, val.scope'; the list shape is not shown): the groups, whose
 * members carry `member_title`, `member_description` and `val: {scope, value}` (scope is the hint).
 */
export const ZAccountClaimGroupV1 = z.object({
  scope: answerText(64),
  title: answerText(),
  description: answerText(),
  num_members: z.number().int(),
  members: z.array(z.object({ claim: answerText(64), member_title: answerText(), member_description: answerText(), val: z.object({ scope: answerText(64), value: answerText(TEXT_MAX).nullable() }) })),
});
export type TAccountClaimGroupV1 = z.infer<typeof ZAccountClaimGroupV1>;

export function toClaimGroupsV1(groups: readonly TAccountClaimGroup[]): TAccountClaimGroupV1[] {
  return groups.map(({ members, ...group }) => ({
    ...group,
    members: members.map((member) => ({ claim: member.claim, member_title: member.title, member_description: member.description, val: { scope: member.scope, value: member.value } })),
  }));
}

/** `GET account/{id}/claims` (v2) and the answer of `PUT` */
export const ZAccountClaimGroups = z.array(ZAccountClaimGroup);
/** `GET account/{id}/claims` (v1) */
export const ZAccountClaimGroupsV1 = z.array(ZAccountClaimGroupV1);
