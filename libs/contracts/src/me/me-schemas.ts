import { z } from 'zod';
import { ZAccount } from '../accounts/account-schemas';
import { ZAccountAttendance } from '../attendance/attendance-report-schemas';
import { ZCalendarEvent } from '../attendance/tracking-status-schemas';
import { ZSmartCard } from '../attendance/smart-card-schemas';
import { answerId, answerTimestamp } from '../common/answers';
import { answerText, boundedText, DOMAIN_CHECKED_TEXT_MAX, lineText, TEXT_MAX } from '../common/text';
import { dateOf } from '../common/dates';

/**
 * A page of one's own (`me.*` over tRPC, `/api/v2/me/...` over REST): every call acts on the signed-in
 * account, never on an id the client names. These are the inputs and answers the API and the console share.
 */

/** a profile text whose length rule is the domain's (`account.profile_too_long`): bounded here only against abuse */
const ownText = (field: string) => boundedText(field, DOMAIN_CHECKED_TEXT_MAX).nullish();
const ZOwnContact = z.strictObject({
  value: boundedText('Value', TEXT_MAX, { trim: true, typeError: 'Enter a value', tooLong: `At most ${TEXT_MAX} characters` }).min(1, { error: 'Enter a value or remove this row' }),
  type: lineText('The type', 64, 'Choose a type'),
});

/**
 * What an account may change about itself (`PATCH me/profile`, `me.updateProfile`): its names, its
 * telephone numbers, its language and its time zone. A field left out keeps its value; empty text
 * clears an optional one. The primary e-mail is not here: relying parties trust it as the `email`
 * claim and activation mails go to it, so an administrator changes it. Nor are status, roles,
 * organizations or the password policy (an administrator's). Unknown fields are refused, so a
 * client that sends `email` or `status_id` hears so instead of believing it saved them.
 */
export const ZUpdateOwnProfileInput = z.strictObject({
  first_name: boundedText('First name', DOMAIN_CHECKED_TEXT_MAX).optional(),
  last_name: boundedText('Last name', DOMAIN_CHECKED_TEXT_MAX).optional(),
  middle_name: ownText('Middle name'),
  nickname: ownText('Nickname'),
  time_zone: ownText('Time zone'),
  locale: ownText('Locale'),
  telephone: z.array(ZOwnContact).max(20, { error: 'At most 20 telephone numbers' }).optional(),
});
export type TUpdateOwnProfileInput = z.input<typeof ZUpdateOwnProfileInput>;

/** `PATCH me/profile`: the notice and the profile as saved */
export const ZOwnProfileSaved = z.object({ message: answerText(), account: ZAccount });
export type TOwnProfileSaved = z.infer<typeof ZOwnProfileSaved>;

/** the profile fields the page lets the account edit, named once for the console and the API */
export const OWN_PROFILE_FIELDS = ['first_name', 'last_name', 'middle_name', 'nickname', 'time_zone', 'locale', 'telephone'] as const;

/**
 * what a session is: a browser (the console), a program using the API, not yet seen, or an
 * application signed in through OpenID Connect (its live tokens; `id` is then the application's)
 */
export const OWN_SESSION_KINDS = ['browser', 'api', 'unknown', 'application'] as const;
export type TOwnSessionKind = (typeof OWN_SESSION_KINDS)[number];

/** One open session of the signed-in account (`GET me/sessions`). */
export const ZOwnSession = z.object({
  id: answerId(),
  /** the session this request came with: it cannot sign itself out here (use Log out) */
  current: z.boolean(),
  kind: z.enum(OWN_SESSION_KINDS),
  /** the browser and system summarised from its user agent ('Chrome 142 on Linux'), the API client's name, or the application's title; null before it is seen */
  client: answerText(TEXT_MAX).nullable(),
  started_at: answerTimestamp(),
  expires_at: answerTimestamp(),
  /** the address it signed in from (the event's source address) */
  signed_in_from: answerText(64).nullable(),
  /** the last time it called this page's API, and from where; null before it has */
  last_seen_at: answerTimestamp().nullable(),
  last_seen_from: answerText(64).nullable(),
});
export type TOwnSession = z.infer<typeof ZOwnSession>;

export const ZOwnSessionId = z.strictObject({ id: z.string({ error: 'id is required' }).max(36, { error: 'id must be a UUID', abort: true }).check(z.uuid({ error: 'id must be a UUID' })) });

/** `DELETE me/sessions` (every other session) and `DELETE me/sessions/{id}`: how many ended */
export const ZOwnSessionsSignedOut = z.object({ message: answerText(), signed_out: z.number().int() });
export type TOwnSessionsSignedOut = z.infer<typeof ZOwnSessionsSignedOut>;

/** `GET me/attendance?date=`: the day the page looks at (in the account's zone); today when left out */
export const ZOwnAttendanceInput = z.strictObject({ date: dateOf('date', 'date must be a real date as YYYY-MM-DD').optional() });
export type TOwnAttendanceInput = z.input<typeof ZOwnAttendanceInput>;

/**
 * The account's own attendance (`GET me/attendance`): the day, its week (Monday to Sunday) and its
 * month, each with arrivals, departures and totals as the Attendance tab reads them; the calendar's
 * absences of the month (attendance statuses); the cards registered to it. Every time of day is in
 * `time_zone`: the account's own zone, else its organization's, else UTC.
 */
export const ZOwnAttendance = z.object({
  time_zone: answerText(64),
  date: answerTimestamp(),
  today: ZAccountAttendance,
  week: ZAccountAttendance,
  month: ZAccountAttendance,
  absences: z.array(ZCalendarEvent),
  cards: z.array(ZSmartCard),
});
export type TOwnAttendance = z.infer<typeof ZOwnAttendance>;

export const ZOwnConsentApplication = z.strictObject({ application_id: z.string({ error: 'application_id is required' }).max(36, { error: 'application_id must be a UUID', abort: true }).check(z.uuid({ error: 'application_id must be a UUID' })) });

export const ME_NOTICES = {
  profileSaved: 'Your profile was saved',
  passwordChanged: 'Password updated successfully',
  sessionSignedOut: 'Session signed out',
  otherSessionsSignedOut: 'Other sessions signed out',
  consentRevoked: 'Consent revoked',
} as const;
