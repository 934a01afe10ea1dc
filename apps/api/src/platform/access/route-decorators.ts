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

export const passwordChangeRequiredError = () => new DomainError('auth.password_change_required', 'Change your password first: this session may only change the password or sign out');
