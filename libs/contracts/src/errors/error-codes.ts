import { z } from 'zod';
import { ZFieldRule } from './field-rules';
import { answerText } from '../common/text';

/** Every HTTP status an error code answers with. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 500 | 503;

/**
 * Stable, dotted error codes, each with the HTTP status it answers: the one table the API maps
 * errors by (REST, and tRPC under the code of the same status). The console maps the codes to
 * translated messages; clients may branch on them. A code is never renamed once released, nor its
 * status changed.
 *
 * The names keep the statuses guessable: `*.not_found` 404, `*.exists`, `*_taken` and `*.in_use`
 * 409, `*.protected` 403, a broken rule of the input 400; a code that answers otherwise says why.
 */
export const ERROR_STATUS = {
  'request.invalid': 400,
  'request.malformed_json': 400,
  // a tRPC body that could not be read at all (a form or a stream)
  'request.malformed_body': 400,
  // a body over the limit, or an import of more rows than one request takes
  'request.too_large': 413,
  'request.unsupported_media_type': 415,
  // a path no route answers (Nest's NotFoundException)
  'route.not_found': 404,
  'auth.required': 401,
  'auth.invalid_credentials': 401,
  'auth.forbidden': 403,
  'auth.password_change_required': 403,
  'auth.token_expired': 401,
  'auth.address_not_allowed': 403,
  'token.not_found': 404,
  'token.exists': 409,
  'token.title_invalid': 400,
  'token.permissions_required': 400,
  'token.expiry_past': 400,
  'password.too_short': 400,
  'password.too_weak': 400,
  'password.reused': 400,
  'password.current_wrong': 400,
  'account.username_unchangeable': 400,
  'account.status_invalid': 400,
  'resource.not_found': 404,
  'projection.not_found': 404,
  // one rebuild of the read models at a time, by the process that runs them (docs/adr/0017)
  'projection.rebuild_running': 409,
  'projection.rebuild_not_leader': 409,
  'set_aside.not_found': 404,
  // someone else appended to the stream first; reloading and trying again succeeds
  'stream.version_conflict': 409,
  'unique.taken': 409,
  'account.username_taken': 409,
  'account.email_taken': 409,
  'account.not_found': 404,
  'account.exists': 409,
  'account.protected': 403,
  // an administrator's password setting names the caller's own account: one's own password changes on one's own page, with the current one (review R24c G2)
  'account.own_password_via_own_page': 403,
  // the caller's own status, policy or lockout through the administrators' routes from a session that signed in more than 5 minutes ago, or an access token (review R24c G2)
  'account.own_credentials_need_recent_sign_in': 403,
  // erasing twice: the account's state refuses it
  'account.erased': 409,
  'account.locked': 400,
  // the password changed between its check and the write (sign-in and password changes answer it as a wrong password)
  'account.password_changed': 400,
  'account.email_invalid': 400,
  'account.birth_date_invalid': 400,
  'account.birth_date_future': 400,
  'account.gender_invalid': 400,
  'account.locale_invalid': 400,
  'account.time_zone_invalid': 400,
  'account.website_invalid': 400,
  'account.profile_required': 400,
  'account.profile_too_long': 400,
  'account.picture_invalid': 400,
  'policy.not_found': 404,
  'policy.title_taken': 409,
  'policy.exists': 409,
  'policy.in_use': 409,
  'policy.title_required': 400,
  'policy.title_too_long': 400,
  'policy.description_too_long': 400,
  'policy.min_length': 400,
  'policy.min_strength': 400,
  'policy.history': 400,
  'policy.max_age': 400,
  'policy.lockout': 400,
  'policy.lockout_duration': 400,
  'session.exists': 409,
  'session.not_found': 404,
  // an unknown, used or expired activation link is 'not found', and all alike
  'activation.invalid': 404,
  'activation.not_awaiting': 400,
  'organization.not_found': 404,
  'organization.exists': 409,
  'organization.protected': 403,
  'organization.title_taken': 409,
  'organization.title_invalid': 400,
  'organization.description_invalid': 400,
  'organization.time_zone_invalid': 400,
  // an organization named by a body or query field that does not exist (parent_id, a deletion's destination)
  'organization.parent_not_found': 404,
  // a move that would close a loop, or a destination deleted by the very same deletion: the tree's state refuses it
  'organization.cycle': 409,
  'organization.destination_required': 400,
  'organization.destination_same': 400,
  'organization.destination_not_found': 404,
  'organization.destination_deleted': 409,
  'membership.exists': 409,
  'membership.not_found': 404,
  'access.title_invalid': 400,
  'access.slug_invalid': 400,
  'access.description_invalid': 400,
  'permission.not_found': 404,
  'permission.exists': 409,
  'permission.protected': 403,
  'permission.slug_taken': 409,
  'role.not_found': 404,
  'role.exists': 409,
  'role.protected': 403,
  'role.slug_taken': 409,
  'team.not_found': 404,
  'team.exists': 409,
  'team.protected': 403,
  'team.title_taken': 409,
  'team.title_invalid': 400,
  'team.description_invalid': 400,
  'team.organization_required': 400,
  // 'User already associated!': the team already has the account
  'team.member_exists': 409,
  'team.member_not_found': 404,
  'team.member_not_in_organization': 400,
  'application.not_found': 404,
  'application.exists': 409,
  'application.title_invalid': 400,
  'application.url_invalid': 400,
  'application.description_invalid': 400,
  'application.scope_invalid': 400,
  'application.redirect_uri_invalid': 400,
  'application.post_logout_redirect_uri_invalid': 400,
  'application.grant_type_invalid': 400,
  'application.pkce_required': 400,
  // rotating the secret of a public client: the application's state refuses it
  'application.client_not_confidential': 409,
  // a role-permission relation id that is unknown or already switched off
  'application.relation_not_found': 404,
  'account.claim_invalid': 400,
  'consent.scope_invalid': 400,
  // the console's OIDC sign-in and consent pages (features/oidc/oidc-interactions.ts): another sign-in's page, a step out of order
  'oidc.interaction_mismatch': 400,
  'oidc.wrong_step': 409,
  'attendance_status.not_found': 404,
  'attendance_status.exists': 409,
  'attendance_status.title_invalid': 400,
  'attendance_status.title_taken': 409,
  'attendance_status.inactive': 400,
  'attendance_status.in_use': 409,
  // a calendar's group or day that is unknown, removed or another account's
  'calendar.group_not_found': 404,
  'calendar.event_not_found': 404,
  // an event group id used twice (a retried create with the same id)
  'calendar.group_exists': 409,
  'calendar.title_invalid': 400,
  'calendar.description_invalid': 400,
  'calendar.time_required': 400,
  'calendar.time_invalid': 400,
  'calendar.time_range_invalid': 400,
  'calendar.date_invalid': 400,
  'calendar.date_range_invalid': 400,
  'calendar.single_day_range': 400,
  'calendar.range_too_long': 400,
  'calendar.date_taken': 409,
  // a time past the years a date can name (0000-9999)
  'date.out_of_range': 400,
  'reader.not_found': 404,
  'reader.exists': 409,
  'reader.name_invalid': 400,
  'reader.name_taken': 409,
  'reader.door_invalid': 400,
  'reader.role_invalid': 400,
  // revoking the token of a reader that has none: nothing to revoke (docs/readers.md; answered 400 until the table)
  'reader.token_not_found': 404,
  'reader.not_enrollment': 409,
  'reader.register_mode_busy': 409,
  // a reader's bearer token that is unknown or revoked
  'reader.token_invalid': 401,
  'reader.no_enrollment_reader': 409,
  'scan.sequence_backwards': 409,
  'scan.outbox_retired': 400,
  'scan.sequence_invalid': 400,
  'scan.reset_reason_required': 400,
  // a reader's scan refused in its batch's answer: a device time that cannot be, a sequence number used for another scan
  'scan.device_time_impossible': 400,
  'scan.sequence_reused': 400,
  'smart_card.uid_invalid': 400,
  'smart_card.taken': 409,
  'smart_card.not_found': 404,
  'unknown_card.not_found': 404,
  'attendance.time_zone_invalid': 400,
  'attendance.rules_invalid': 400,
  'attendance.slot_not_found': 404,
  'attendance.correction_invalid': 400,
  'attendance.manual_slot_invalid': 400,
  // too many failed sign-ins, or a locked account changing its password: Retry-After says when to try again
  'rate.limited': 429,
  // storage unavailable or busy past its retries: the call was not completed, the caller may try again
  'server.unavailable': 503,
  'server.internal': 500,
  // second factors (docs/adr/0025): the password was right, now the code: a two-step sign-in's first answer
  'auth.second_factor_required': 401,
  // a wrong, used or stale code, or a challenge that no longer holds: one answer for all
  'auth.second_factor_invalid': 401,
  // the account's policy requires a second factor it has not enrolled: this session may only enrol one
  'auth.second_factor_enrolment_required': 403,
  'second_factor.totp_enrolled': 409,
  'second_factor.enrolment_not_found': 404,
  'second_factor.code_invalid': 400,
  'second_factor.not_found': 404,
  'second_factor.required': 409,
  'second_factor.none_enrolled': 409,
  'second_factor.recovery_codes_invalid': 400,
  'second_factor.reason_required': 400,
  'second_factor.reason_too_long': 400,
  // a reset's reason with bidi overrides, zero-width characters or Unicode line separators (review R24 F9)
  'second_factor.reason_invalid': 400,
  // an administrator's reset names the caller's own account: one's own factors go on one's own page, with a current factor
  'second_factor.reset_own_account': 403,
  'policy.second_factor': 400,
  // passkeys (docs/adr/0029)
  'second_factor.passkey_name_required': 400,
  'second_factor.passkey_name_too_long': 400,
  'second_factor.passkey_name_invalid': 400,
  'second_factor.passkey_name_taken': 409,
  'second_factor.passkey_not_found': 404,
  'second_factor.passkeys_too_many': 409,
  'second_factor.passkey_invalid': 400,
  'second_factor.passkey_registered': 409,
  // the browser's request named no origin and ROLLCALL_PUBLIC_URL is unset: no relying party to check against
  'second_factor.passkey_origin_unknown': 400,
  // removing a factor or replacing the recovery codes from one's own page: a current code or passkey first
  'second_factor.confirmation_required': 400,
  'second_factor.confirmation_invalid': 400,
  // a first factor from a session that signed in more than five minutes ago: the current password first (review R24b F1)
  'second_factor.reauthentication_required': 400,
  // a valid passkey, but the account's policy does not let a passkey sign in alone
  'auth.passkey_sign_in_not_allowed': 403,
} as const satisfies Record<string, ErrorStatus>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as readonly ErrorCode[];

/** Whether a code thrown as a plain string (a DomainError's) is one of the table's. */
export function isErrorCode(code: string): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_STATUS, code);
}

/** The one error shape of every REST answer (and of tRPC errors' `data.apiError`). */
export const ZApiError = z.object({
  error: z.object({
    code: answerText(100),
    // an answer's message names every broken field: bounded by the body it answers (1 MB)
    message: answerText(1024 * 1024),
    fields: z.record(answerText(), z.array(answerText(1024 * 1024))).optional(),
    // beside `fields`: each message's rule as a stable code and parameters (field-rules.ts), to translate by
    rules: z.array(ZFieldRule).optional(),
  }),
});
export type TApiError = z.infer<typeof ZApiError>;
