import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/app-config';
import { keyIdOf, loadSecretsKeys, seal, SecretsKeyError, unseal } from './secrets-key';

const base = mkdtempSync(join(tmpdir(), 'rollcall-secrets-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('the secrets key (docs/security.md, "Keys at rest")', () => {
  it('defaults to a key file beside the data directory, and refuses one inside it or a malformed key', () => {
    const dataDir = join(base, 'data');
    expect(loadConfig({ ROLLCALL_DATA_DIR: dataDir }).secrets).toEqual({ key: null, keyFile: `${dataDir}.key`, previousKey: null });
    expect(() => loadConfig({ ROLLCALL_DATA_DIR: dataDir, ROLLCALL_SECRETS_KEY_FILE: join(dataDir, 'secrets.key') })).toThrow(ConfigError);
    expect(() => loadConfig({ ROLLCALL_DATA_DIR: dataDir, ROLLCALL_SECRETS_KEY_FILE: join(dataDir, 'secrets.key') })).toThrow(/ROLLCALL_SECRETS_KEY_FILE: must be outside the data directory/);
    for (const key of ['short', randomBytes(16).toString('base64'), randomBytes(33).toString('base64'), 'x'.repeat(200_000)]) {
      expect(() => loadConfig({ ROLLCALL_SECRETS_KEY: key })).toThrow(/ROLLCALL_SECRETS_KEY must be base64 of exactly 32 bytes/);
    }
    const key = randomBytes(32).toString('base64');
    expect(loadConfig({ ROLLCALL_SECRETS_KEY: key, ROLLCALL_SECRETS_KEY_PREVIOUS: randomBytes(32).toString('base64url') }).secrets.key).toBe(key);
  });

  it('creates the key file once, readable by its owner alone, and reads it back', () => {
    mkdirSync(join(base, 'beside'));
    const keyFile = join(base, 'beside', 'first-start.key');
    const first = loadSecretsKeys({ secrets: { key: null, keyFile, previousKey: null } });
    // written whole and linked into place: no draft left behind
    expect(readdirSync(join(base, 'beside'))).toEqual(['first-start.key']);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(first.current).toHaveLength(32);
    expect(loadSecretsKeys({ secrets: { key: null, keyFile, previousKey: null } }).current.equals(first.current)).toBe(true);
    expect(readFileSync(keyFile, 'utf8').trim()).toBe(first.current.toString('base64'));
    const broken = join(base, 'broken.key');
    writeFileSync(broken, 'not a key', { mode: 0o600 });
    expect(() => loadSecretsKeys({ secrets: { key: null, keyFile: broken, previousKey: null } })).toThrow(SecretsKeyError);
  });

  it('seals with AES-256-GCM: only the same key and context open it, and an altered value does not', () => {
    const key = randomBytes(32);
    const sealed = seal(key, 'the private key', 'row/a');
    expect(JSON.stringify(sealed)).not.toContain('the private key');
    expect(sealed.kid).toBe(keyIdOf(key));
    expect(unseal(key, sealed, 'row/a')).toBe('the private key');
    expect(unseal(randomBytes(32), sealed, 'row/a')).toBeNull();
    expect(unseal(key, sealed, 'row/b')).toBeNull();
    const altered = { ...sealed, data: Buffer.from(Buffer.from(sealed.data, 'base64url').map((byte, i) => (i === 0 ? byte ^ 1 : byte))).toString('base64url') };
    expect(unseal(key, altered, 'row/a')).toBeNull();
  });
});
