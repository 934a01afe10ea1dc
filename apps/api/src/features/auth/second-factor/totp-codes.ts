import { Secret, TOTP } from 'otpauth';
import { TOTP_PERIOD_SECONDS, TOTP_WINDOW_STEPS } from '@rollcall/domain';

/**
 * TOTP (RFC 6238) through `otpauth`: SHA-1, 6 digits, 30-second steps, the parameters every
 * authenticator app reads from an otpauth:// URI (Google Authenticator ignores any other). The
 * window and the refusal of a used step are the domain's (libs/domain/src/second-factor).
 */
const DIGITS = 6;
export const TOTP_DIGITS = DIGITS;
export const TOTP_ISSUER = 'Rollcall';

const totpOf = (secretBase32: string, label = 'account') =>
  new TOTP({ issuer: TOTP_ISSUER, label, algorithm: 'SHA1', digits: DIGITS, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });

/** 160 random bits (RFC 4226 section 4 recommends at least that), base32 as apps take it typed */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

export const totpUri = (secretBase32: string, username: string): string => totpOf(secretBase32, username).toString();

/** the otpauth URI as a PNG data URL, drawn on the server so the console needs no QR library */
export const totpQrCode = async (uri: string): Promise<string> => {
  // loaded at the first enrolment, not at start (about 15 MB of an idle API's memory)
  const { default: QRCode } = await import('qrcode');
  return QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 220 });
};

/** a code as typed: digits only, spaces and dashes ignored */
export const asTotpCode = (code: string): string | null => {
  const digits = code.replace(/[\s-]/g, '');
  return /^\d{6}$/.test(digits) ? digits : null;
};

/**
 * The time step whose code `code` is, within the window around `now` (the step before, this one or
 * the next), or null. The domain refuses a step used already.
 */
export function matchingTotpStep(secretBase32: string, code: string, now: Date): number | null {
  const delta = totpOf(secretBase32).validate({ token: code, timestamp: now.getTime(), window: TOTP_WINDOW_STEPS });
  if (delta === null) return null;
  return Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** the current step's code (tests, and nothing else, generate codes) */
export const totpCodeAt = (secretBase32: string, at: Date): string => totpOf(secretBase32).generate({ timestamp: at.getTime() });
