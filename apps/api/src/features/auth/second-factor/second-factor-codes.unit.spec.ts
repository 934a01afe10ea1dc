import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../../platform/config/app-config';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { hashRecoveryCode, newRecoveryCodes, normalizeRecoveryCode } from './recovery-codes';
import { SignInChallenges } from './sign-in-challenge';
import { matchingTotpStep, newTotpSecret, totpCodeAt } from './totp-codes';

const config = (key = randomBytes(32).toString('base64')) => ({ secrets: { key, keyFile: '/nonexistent/rollcall.key', previousKey: null } }) as unknown as AppConfig;
const now = new Date('2026-11-26T12:00:10.000Z');
/** issuing and verifying are stateless: only spending a challenge (int tests) touches the database */
const noDatabase = {} as Kysely<ReadDatabase>;

describe('the sign-in challenge between the password and the code', () => {
  const challenges = new SignInChallenges(config(), noDatabase);

  it('names the account until it expires, for the password it was issued after', () => {
    const { challenge, expiresAt } = challenges.issue('a1', '$argon2id$hash', now);
    const claims = challenges.verify(challenge, now);
    expect(claims).toMatchObject({ accountId: 'a1', expiresAt });
    expect(challenges.matchesPassword(claims!, '$argon2id$hash')).toBe(true);
    expect(challenges.matchesPassword(claims!, '$argon2id$another')).toBe(false);
    expect(challenges.verify(challenge, new Date(Date.parse(expiresAt) + 1))).toBeNull();
  });

  it('refuses a challenge altered, forged with another key, or malformed', () => {
    const { challenge } = challenges.issue('a1', null, now);
    const [body, signature] = challenge.split('.');
    const otherAccount = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), a: 'a2' })).toString('base64url');
    expect(challenges.verify(`${otherAccount}.${signature}`, now)).toBeNull();
    expect(new SignInChallenges(config(), noDatabase).verify(challenge, now)).toBeNull();
    for (const malformed of ['', 'x', 'a.b.c', `${body}.`]) expect(challenges.verify(malformed, now)).toBeNull();
  });
});

describe('TOTP codes and recovery codes', () => {
  it('matches a code of the step before, this one or the next, and names its step', () => {
    const secret = newTotpSecret();
    const step = Math.floor(now.getTime() / 30_000);
    for (const offset of [-1, 0, 1]) expect(matchingTotpStep(secret, totpCodeAt(secret, new Date((step + offset) * 30_000)), now)).toBe(step + offset);
    expect(matchingTotpStep(secret, totpCodeAt(secret, new Date((step + 2) * 30_000)), now)).toBeNull();
  });

  it('makes ten different codes whose hashes ignore case, spaces and dashes, per account', () => {
    const { codes, hashes } = newRecoveryCodes('a1');
    expect(new Set(codes).size).toBe(10);
    expect(hashRecoveryCode('a1', ` ${codes[0].toUpperCase().replace(/-/g, ' ')} `)).toBe(hashes[0]);
    expect(hashRecoveryCode('a2', codes[0])).not.toBe(hashes[0]);
    expect(normalizeRecoveryCode('AbCd-EfGh')).toBe('abcdefgh');
  });
});
