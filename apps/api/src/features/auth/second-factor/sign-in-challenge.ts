import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../platform/config/app-config';
import { loadSecretsKeys } from '../../../platform/secrets/secrets-key';
import { APP_CONFIG } from '../../../platform/tokens';

/** how long the second step may wait for the code after the right password */
export const CHALLENGE_SECONDS = 300;

export interface ChallengeClaims {
  accountId: string;
  /** a fingerprint of the password hash the first step verified: a password changed since voids the challenge */
  password: string;
  expiresAt: string;
}

/**
 * The first step's proof that the password was right, handed to the client and sent back with the
 * code: signed (HMAC-SHA-256 with a key derived from the secrets key), not stored, so any API
 * process behind a load balancer checks it, and it holds nothing secret (an account id, an expiry,
 * a hash of a hash). What it opens is one more code attempt, under the throttle and the lockout.
 */
@Injectable()
export class SignInChallenges {
  private key: Buffer | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  private signingKey(): Buffer {
    this.key ??= createHmac('sha256', loadSecretsKeys(this.config).current).update('rollcall second-factor challenge').digest();
    return this.key;
  }

  issue(accountId: string, passwordHash: string | null, now: Date): { challenge: string; expiresAt: string } {
    const expiresAt = new Date(now.getTime() + CHALLENGE_SECONDS * 1000).toISOString();
    const body = Buffer.from(JSON.stringify({ a: accountId, p: fingerprint(passwordHash), e: expiresAt })).toString('base64url');
    return { challenge: `${body}.${this.sign(body)}`, expiresAt };
  }

  /** the claims of a challenge this server signed and that has not expired, else null */
  verify(challenge: string, now: Date): ChallengeClaims | null {
    const [body, signature, extra] = challenge.split('.');
    if (!body || !signature || extra !== undefined) return null;
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    try {
      const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { a: string; p: string; e: string };
      if (typeof claims.a !== 'string' || typeof claims.p !== 'string' || typeof claims.e !== 'string') return null;
      if (Date.parse(claims.e) <= now.getTime()) return null;
      return { accountId: claims.a, password: claims.p, expiresAt: claims.e };
    } catch {
      return null;
    }
  }

  matchesPassword(claims: ChallengeClaims, passwordHash: string | null): boolean {
    return claims.password === fingerprint(passwordHash);
  }

  private sign(body: string): string {
    return createHmac('sha256', this.signingKey()).update(body).digest('base64url');
  }
}

const fingerprint = (passwordHash: string | null) => createHash('sha256').update(passwordHash ?? '').digest('base64url').slice(0, 22);
