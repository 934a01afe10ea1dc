import { z } from 'zod';
import { TEXT_MAX } from '../accounts/account-schemas';
import { isRealDate } from '../common/dates';
import { answerText, boundedText, DOMAIN_CHECKED_TEXT_MAX, lineText } from '../common/text';
import { fieldRule } from '../errors/field-rule-codes';

/**
 * The single sign-on claims an administrator can set per account (console-accounts.md tab 10:
 * 'accordion grouped by scope; each group shows title, member count and description; each member has
 * a title, description and a text field (counter 255) with its scope as hint'). See docs/adr/0014.
 *
 * The groups are OpenID Connect's standard scopes and the members their standard claims (OpenID
 * Connect Core 1.0 section 5.4). A value set here is what the provider releases for the claim; an
 * empty one falls back to the profile field named in `fallback`. Claims that identify the account at
 * a relying party (`sub`, `preferred_username`, `email`) are not editable: they always come from the
 * account itself, so an administrator can never make one account claim another's e-mail address.
 */
export interface TSsoClaimDefinition {
  claim: string;
  title: string;
  description: string;
  /** the profile field released when no value is set, or null */
  fallback: string | null;
}

export interface TSsoClaimScope {
  scope: 'profile' | 'address' | 'phone';
  title: string;
  description: string;
  members: readonly TSsoClaimDefinition[];
}

export const SSO_CLAIM_SCOPES: readonly TSsoClaimScope[] = [
  {
    scope: 'profile',
    title: 'Profile',
    description: 'Your name and other basic facts about you',
    members: [
      { claim: 'name', title: 'Full name', description: 'The name to show, for example Ada Lovelace', fallback: 'first_name last_name' },
      { claim: 'given_name', title: 'Given name', description: 'First name', fallback: 'first_name' },
      { claim: 'family_name', title: 'Family name', description: 'Last name', fallback: 'last_name' },
      { claim: 'middle_name', title: 'Middle name', description: 'Middle name, if any', fallback: 'middle_name' },
      { claim: 'nickname', title: 'Nickname', description: 'A casual name', fallback: 'nickname' },
      { claim: 'profile', title: 'Profile page', description: 'Address of a profile page (http or https)', fallback: 'profile' },
      { claim: 'website', title: 'Website', description: 'Address of a web page or blog (http or https)', fallback: 'website' },
      { claim: 'gender', title: 'Gender', description: 'Gender, as the person states it', fallback: 'gender' },
      { claim: 'birthdate', title: 'Birth date', description: 'YYYY-MM-DD, or YYYY alone, or 0000-MM-DD without the year', fallback: 'birth_date' },
      { claim: 'zoneinfo', title: 'Time zone', description: 'A time zone name, for example Europe/Berlin', fallback: 'time_zone' },
      { claim: 'locale', title: 'Locale', description: 'A language tag, for example de-DE', fallback: 'locale' },
    ],
  },
  {
    scope: 'address',
    title: 'Address',
    description: 'Your postal address',
    members: [{ claim: 'address', title: 'Postal address', description: 'The full address as it is printed on mail', fallback: 'address' }],
  },
  {
    scope: 'phone',
    title: 'Phone',
    description: 'Your phone number',
    members: [{ claim: 'phone_number', title: 'Phone number', description: 'Preferably with the country code, for example +49 30 1234567', fallback: 'telephone' }],
  },
];

export const SSO_CLAIM_NAMES: readonly string[] = SSO_CLAIM_SCOPES.flatMap((group) => group.members.map((member) => member.claim));

/**
 * Released under our own scope `roles`, never editable: the slugs of the roles the account holds in the
 * requesting application, and the slugs of the permissions those roles hold (docs/adr/0014).
 */
export const ROLES_SCOPE = 'roles';
export const ROLES_CLAIM = 'roles';
export const PERMISSIONS_CLAIM = 'permissions';

const HTTP_URL = /^https?:\/\/[^\s/?#]+(?:[/?#]\S*)?$/i;
const BIRTHDATE = /^(\d{4}|\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]))$/;

/** a rule of form beyond the counter, by claim */
const FORMS: Record<string, { test: (value: string) => boolean; message: string; rule: ReturnType<typeof fieldRule> }> = {
  profile: { test: (value) => HTTP_URL.test(value), message: 'Profile page must be an http or https address', rule: fieldRule('url', { label: 'Profile page' }) },
  website: { test: (value) => HTTP_URL.test(value), message: 'Website must be an http or https address', rule: fieldRule('url', { label: 'Website' }) },
  // a full date is a real one (0000-MM-DD: year 0 is a leap year, so 0000-02-29 is fine)
  birthdate: { test: (value) => BIRTHDATE.test(value) && (value.length === 4 || isRealDate(value)), message: 'Birth date must be YYYY-MM-DD, YYYY, or 0000-MM-DD', rule: fieldRule('birthdate', { label: 'Birth date' }) },
};

/**
 * `PUT account/{id}/claims` (our addition; the spec shows only `GET account/{id}/claims`) and
 * `accounts.setClaims`: the tab's fields by claim name. An empty or null value clears the claim.
 * Unknown claim names are refused under their own name.
 */
export const ZAccountClaimsInput = z.object({
  claims: z
    .record(
      lineText('A claim name', 64),
      // the 255 below is counted in characters (code points); this bound only stops abuse
      boundedText('A claim value', DOMAIN_CHECKED_TEXT_MAX, { trim: true }).nullable(),
      { error: 'claims must map claim names to text' },
    )
    .superRefine((claims, ctx) => {
      for (const [claim, value] of Object.entries(claims)) {
        if (!SSO_CLAIM_NAMES.includes(claim)) ctx.addIssue({ code: 'custom', path: [claim], message: `${claim} is not a claim that can be set: ${SSO_CLAIM_NAMES.join(', ')}`, params: fieldRule('one_of', { label: claim, values: SSO_CLAIM_NAMES.join(', ') }) });
        else if (value && [...value].length > TEXT_MAX) ctx.addIssue({ code: 'custom', path: [claim], message: `${claim} may be at most ${TEXT_MAX} characters`, params: fieldRule('too_long', { label: claim, max: TEXT_MAX }) });
        else if (value && FORMS[claim] && !FORMS[claim].test(value)) ctx.addIssue({ code: 'custom', path: [claim], message: FORMS[claim].message, params: FORMS[claim].rule });
      }
    })
    .transform((claims) => Object.fromEntries(Object.entries(claims).map(([claim, value]) => [claim, value || null]))),
});
export type TAccountClaimsInput = z.input<typeof ZAccountClaimsInput>;
export type TAccountClaimsCommandInput = z.output<typeof ZAccountClaimsInput>;

/** one text field of the tab: `scope` is its hint */
export const ZAccountClaim = z.object({
  claim: answerText(64),
  title: answerText(),
  description: answerText(),
  scope: answerText(64),
  /** the value set for this account, or null (then the profile's value is released, if any) */
  value: answerText(TEXT_MAX).nullable(),
  /** what is released while no value is set: the profile's value named by `fallback`, or null */
  fallback_value: answerText(DOMAIN_CHECKED_TEXT_MAX).nullable().optional(),
});
export type TAccountClaim = z.infer<typeof ZAccountClaim>;

/** `GET account/{id}/claims`: one accordion group per scope */
export const ZAccountClaimGroup = z.object({ scope: answerText(64), title: answerText(), description: answerText(), num_members: z.number().int(), members: z.array(ZAccountClaim) });
export type TAccountClaimGroup = z.infer<typeof ZAccountClaimGroup>;
