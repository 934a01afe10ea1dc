import type { Response } from 'express';
import { SESSION_COOKIE } from '@rollcall/contracts';

/** HttpOnly, SameSite=Lax; Secure when the request came over HTTPS (directly or via the proxy). */
export function setSessionCookie(response: Response, token: string, expiresAt: string, secure: boolean): void {
  response.cookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure, path: '/', expires: new Date(expiresAt) });
}

export function clearSessionCookie(response: Response): void {
  response.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/' });
}
