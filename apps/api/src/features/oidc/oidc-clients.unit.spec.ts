import { createHash } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { clientSecretMatches } from './oidc-clients';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

describe('clientSecretMatches', () => {
  const secret = 'Yq3v8Jm0sX1rX8d6z8fQ0u9nQm3B2Zr5a1t7c4e6g8i';

  it('accepts the secret whose SHA-256 is stored, and nothing else', async () => {
    expect(await clientSecretMatches(sha256(secret), secret)).toBe(true);
    expect(await clientSecretMatches(sha256(secret), `${secret}x`)).toBe(false);
    // the stored hash itself is not the secret (the provider's default comparison would do exactly this)
    expect(await clientSecretMatches(sha256(secret), sha256(secret))).toBe(false);
    expect(await clientSecretMatches(sha256(secret), '')).toBe(false);
    expect(await clientSecretMatches(sha256(secret), undefined)).toBe(false);
  });

  it('verifies an argon2 PHC string', async () => {
    const phc = await hash(secret, { memoryCost: 1024, timeCost: 1 });
    expect(await clientSecretMatches(phc, secret)).toBe(true);
    expect(await clientSecretMatches(phc, 'wrong')).toBe(false);
  });

  it('refuses when nothing usable is stored (a secret never issued)', async () => {
    expect(await clientSecretMatches('!never-issued:app', '!never-issued:app')).toBe(false);
    expect(await clientSecretMatches(undefined, secret)).toBe(false);
  });
});
