import { DomainError } from '../shared';
import type { AccountProfile } from './account-events';

export const PROFILE_TEXT_MAX = 255;
export const GENDERS = ['male', 'female'] as const;
export const PROFILE_LOCALES = ['en', 'de'] as const;

export interface ProfileViolation {
  code: string;
  /** the wire field the console shows the message under (spec section 5) */
  field: string;
  message: string;
  /** the field rule it breaks (a FIELD_RULE_CODES member of libs/contracts) with its numbers, where one fits */
  rule?: { code: string; params: Record<string, string | number> };
}

// Linear-time: the dot that splits the labels is a character the labels cannot hold, so a long
// value is read once (the looser /^[^\s@]+@[^\s@]+\.[^\s@]+$/ was quadratic: docs/security.md)
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
const WEBSITE = /^https?:\/\/[^\s/?#.]+(?:\.[^\s/?#.]+)+(?:[/?#]\S*)?$/i;
const length = (text: string) => [...text].length;

/** A real calendar day as YYYY-MM-DD (no 2026-02-30). */
export function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 19xx (0099-06-15 would be refused)
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

type ProfileInput = Omit<AccountProfile, 'additional'> & { additional: Omit<AccountProfile['additional'], 'telephone' | 'emails'> };

/** Every rule a profile breaks, in form order. `today` is YYYY-MM-DD from the caller's clock. */
export function accountProfileViolations(profile: ProfileInput, today: string): ProfileViolation[] {
  const v: ProfileViolation[] = [];
  const a = profile.additional;
  const text = (value: string | null, field: string, label: string, required = false) => {
    const trimmed = (value ?? '').trim();
    if (required && !trimmed) v.push({ code: 'account.profile_required', field, message: `${label} is required`, rule: { code: 'required', params: { label } } });
    else if (length(trimmed) > PROFILE_TEXT_MAX) {
      v.push({ code: 'account.profile_too_long', field, message: `${label} may be at most ${PROFILE_TEXT_MAX} characters`, rule: { code: 'too_long', params: { label, max: PROFILE_TEXT_MAX } } });
    }
  };
  text(profile.firstName, 'first_name', 'First name', true);
  text(a.middleName, 'middle_name', 'Middle name');
  text(a.nickname, 'nickname', 'Nickname');
  if (a.birthDate !== null) {
    if (!isCalendarDate(a.birthDate)) v.push({ code: 'account.birth_date_invalid', field: 'birth_date', message: 'Birth date must be a real date as YYYY-MM-DD', rule: { code: 'date', params: { label: 'Birth date' } } });
    else if (a.birthDate > today) v.push({ code: 'account.birth_date_future', field: 'birth_date', message: 'Birth date may not be in the future', rule: { code: 'not_future', params: { label: 'Birth date' } } });
  }
  text(profile.email, 'email', 'E-mail', true);
  if (profile.email.trim() && !EMAIL.test(profile.email.trim())) v.push({ code: 'account.email_invalid', field: 'email', message: 'E-mail must be a valid e-mail address', rule: { code: 'email', params: { label: 'E-mail' } } });
  text(a.profile, 'profile', 'Profile');
  text(profile.lastName, 'last_name', 'Last name', true);
  if (a.gender !== null && !(GENDERS as readonly string[]).includes(a.gender)) v.push({ code: 'account.gender_invalid', field: 'gender', message: 'Gender is male or female', rule: { code: 'one_of', params: { label: 'Gender', values: GENDERS.join(', ') } } });
  if (a.timeZone !== null && (!a.timeZone.trim() || length(a.timeZone) > 64)) v.push({ code: 'account.time_zone_invalid', field: 'time_zone', message: 'Unknown time zone', rule: { code: 'time_zone', params: { label: 'Time zone' } } });
  if (a.locale !== null && !(PROFILE_LOCALES as readonly string[]).includes(a.locale)) v.push({ code: 'account.locale_invalid', field: 'locale', message: 'Locale is en or de', rule: { code: 'one_of', params: { label: 'Locale', values: PROFILE_LOCALES.join(', ') } } });
  if (a.website !== null) {
    if (length(a.website) > PROFILE_TEXT_MAX) {
      v.push({ code: 'account.profile_too_long', field: 'website', message: `Website may be at most ${PROFILE_TEXT_MAX} characters`, rule: { code: 'too_long', params: { label: 'Website', max: PROFILE_TEXT_MAX } } });
    }
    else if (!WEBSITE.test(a.website)) v.push({ code: 'account.website_invalid', field: 'website', message: 'Website must be an http or https address', rule: { code: 'url', params: { label: 'Website' } } });
  }
  text(a.address, 'address', 'Address');
  return v;
}

/** Throws one DomainError carrying every broken rule under its field. */
export function throwProfileViolations(violations: ProfileViolation[]): void {
  if (!violations.length) return;
  const fields: Record<string, string[]> = {};
  for (const violation of violations) (fields[violation.field] ??= []).push(violation.message);
  const [first] = violations;
  const message = violations.length === 1 ? first.message : `Invalid profile (${violations.map((x) => `${x.field}: ${x.message}`).join('; ')})`;
  const rules = violations.flatMap(({ field, message: text, rule }) => (rule ? [{ field, message: text, ...rule }] : []));
  throw new DomainError(first.code, message, first.field, fields, rules);
}
