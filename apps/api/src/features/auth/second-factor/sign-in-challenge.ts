import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../../platform/config/app-config';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { loadSecretsKeys } from '../../../platform/secrets/secrets-key';
import { APP_CONFIG, READ_DB } from '../../../platform/tokens';

/** how long the second step may wait for the code after the right password */
export const CHALLENGE_SECONDS = 300;

export interface ChallengeClaims {
  accountId: string;
  /** a fingerprint of the password hash the first step verified: a password changed since voids the challenge */
  password: string;
  expiresAt: string;
}

/** A challenge that opened a session or ended in a lockout: never accepted again (review R24b F5). */
export interface SpentSignInChallengeTable {
  /** SHA-256 of the challenge (it holds an account id) */
  challenge_hash: string;
  /** the challenge's own expiry: the row is swept after it */
  expires_at: string;
}

declare module '../../../platform/read-db/read-database' {
  interface ReadDatabase {
    spent_sign_in_challenges: SpentSignInChallengeTable;
  }
}

/**
 * The first step's proof that the password was right, handed to the client and sent back with the
 * code: signed (HMAC-SHA-256 with a key derived from the secrets key), not stored, so any API
 * process behind a load balancer checks it, and it holds nothing secret (an account id, an expiry,
 * a hash of a hash). What it opens is one more code attempt, under the throttle and the lockout.
 * It opens one session at most: a second step spends it before its code is used (and gives it back
 * when the code was wrong and did not lock the account), in `spent_sign_in_challenges` (beside the
 * read models, never rebuilt, like `passkey_ceremonies`; a primary key, so of steps racing with one
 * challenge one goes on and the others are refused before their codes are used, also across API
 * processes sharing the database). Rows are swept once their challenge has expired.
 */
@Injectable()
export class SignInChallenges implements OnModuleInit {
  private key: Buffer | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.db.schema
      .createTable('spent_sign_in_challenges')
      .ifNotExists()
      .addColumn('challenge_hash', 'text', (c) => c.primaryKey())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
  }

  /** has a second step already spent this challenge */
  async spent(challenge: string): Promise<boolean> {
    return (await this.db.selectFrom('spent_sign_in_challenges').select(['challenge_hash']).where('challenge_hash', '=', challengeHash(challenge)).executeTakeFirst()) !== undefined;
  }

  /** spends the challenge: true for the one call that did, false if another spent it first */
  async spend(challenge: string, claims: ChallengeClaims, now: Date): Promise<boolean> {
    await this.db.deleteFrom('spent_sign_in_challenges').where('expires_at', '<=', now.toISOString()).execute();
    const inserted = await this.db
      .insertInto('spent_sign_in_challenges')
      .values({ challenge_hash: challengeHash(challenge), expires_at: claims.expiresAt })
      .onConflict((oc) => oc.column('challenge_hash').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  /** gives back a challenge this call spent and whose code was not right (the account not locked by it) */
  async release(challenge: string): Promise<void> {
    await this.db.deleteFrom('spent_sign_in_challenges').where('challenge_hash', '=', challengeHash(challenge)).execute();
  }

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

const challengeHash = (challenge: string) => createHash('sha256').update(challenge).digest('base64url');

const fingerprint = (passwordHash: string | null) => createHash('sha256').update(passwordHash ?? '').digest('base64url').slice(0, 22);
