import { SetMetadata } from '@nestjs/common';
import { DomainError } from '@rollcall/domain';

/**
 * What a route says about its caller, read by the auth feature's guard: the platform's controllers
 * (health, metrics, the API documents) mark themselves public without knowing who checks.
 */
export const IS_PUBLIC = 'rollcall:public';
/** Marks the few routes that work without a session (sign-in, API documents). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

export const ALLOWED_WHILE_PASSWORD_CHANGE_REQUIRED = 'rollcall:allowed-while-password-change-required';
/** The few routes a session that must change its password may call (account/current, the change, logout). */
export const AllowedWhilePasswordChangeRequired = () => SetMetadata(ALLOWED_WHILE_PASSWORD_CHANGE_REQUIRED, true);

export const ALLOWED_WHILE_SECOND_FACTOR_ENROLMENT_REQUIRED = 'rollcall:allowed-while-second-factor-enrolment-required';
/** The routes a session that must enrol a second factor first may call (enrolment, account/current, logout): docs/adr/0025. */
export const AllowedWhileSecondFactorEnrolmentRequired = () => SetMetadata(ALLOWED_WHILE_SECOND_FACTOR_ENROLMENT_REQUIRED, true);

export const secondFactorEnrolmentRequiredError = () =>
  new DomainError('auth.second_factor_enrolment_required', 'Enrol a second factor first: your password policy requires one, and this session may only enrol it or sign out');

export const passwordChangeRequiredError = () => new DomainError('auth.password_change_required', 'Change your password first: this session may only change the password or sign out');

/** The restrictions a route or procedure stays open under (REST: the @AllowedWhile… decorators; tRPC: sessionProcedureAllowedWhile). */
export interface AllowedRestrictions {
  passwordChangeRequired?: boolean;
  secondFactorEnrolmentRequired?: boolean;
}

/**
 * The one rule REST's guard and tRPC's procedures share (docs/adr/0025): a session that must change
 * its password may call only what is open while it must, and only then one that must enrol a second
 * factor only what is open while it must (the password first, one restriction at a time).
 */
export function restrictionRefusal(principal: { kind: string; passwordChangeRequired: boolean; secondFactorEnrolmentRequired?: boolean }, allowed: AllowedRestrictions): DomainError | null {
  if (principal.passwordChangeRequired) return allowed.passwordChangeRequired ? null : passwordChangeRequiredError();
  if (principal.kind === 'session' && principal.secondFactorEnrolmentRequired) return allowed.secondFactorEnrolmentRequired ? null : secondFactorEnrolmentRequiredError();
  return null;
}
