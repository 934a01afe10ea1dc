import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { Kysely } from 'kysely';
import * as oidc from 'openid-client';
import { afterAll, describe, expect, it } from 'vitest';
import { http, startTestApp, storageKinds, type StorageKind, type TestApp } from '../../../test/test-app';
import type { AppConfig } from '../../platform/config/app-config';
import { READ_DB } from '../../platform/tokens';
import type { ReadDatabase } from '../../platform/read-db/read-database';
import { isSealed, keyIdOf, unseal } from '../../platform/secrets/secrets-key';
import type { OidcKeys } from './oidc-keys';

const CONTEXT = 'oidc_store/RollcallKeys/current';

/**
 * Keys at rest (docs/security.md): the OpenID Connect signing and cookie keys are sealed at rest with
 * the secrets key (ROLLCALL_SECRETS_KEY, or the key file beside the data directory), keys stored in
 * clear by an earlier version are sealed at the next start, a wrong key stops the start with its
 * reason, and a rotation (ROLLCALL_SECRETS_KEY_PREVIOUS) re-seals them. And (docs/security.md, 'OpenID
 * Connect provider') the issuer is the URL the server prints when ROLLCALL_PUBLIC_URL is unset.
 */
describe.each(storageKinds())('OpenID Connect keys at rest (%s)', (kind: StorageKind) => {
  let app: TestApp;
  let config: AppConfig;

  afterAll(async () => {
    await app?.destroy();
  });

  const readDb = () => app.app.get<Kysely<ReadDatabase>>(READ_DB);
  const storedRow = async () => (await readDb().selectFrom('oidc_store').select('payload').where('model', '=', 'RollcallKeys').where('id', '=', 'current').executeTakeFirstOrThrow()).payload;
  const publishedKids = async () => ((await http(app.url).get('/oidc/jwks')).body.keys as Array<{ kid: string }>).map((key) => key.kid);
  /** every byte of the read database's files (SQLite: read.db and its WAL) */
  const databaseFiles = () =>
    config.readDb.kind === 'sqlite'
      ? [config.readDb.file, `${config.readDb.file}-wal`].filter((file) => existsSync(file)).map((file) => ({ file, bytes: readFileSync(file).toString('latin1') }))
      : [];
  const restartWith = async (secrets: Partial<AppConfig['secrets']>) => {
    await app.stop();
    const next = { ...config, secrets: { ...config.secrets, ...secrets } };
    app = await startTestApp(kind, {}, next);
    config = next;
  };

  it('prints an issuer that a standard relying party discovers at the URL the server runs at', async () => {
    app = await startTestApp(kind);
    config = app.config;
    expect(config.publicUrl).toBeNull();
    expect(app.issuer).toBe(`${app.url}/oidc`);
    const discovery = await http(app.url).get('/oidc/.well-known/openid-configuration');
    expect(discovery.body.issuer).toBe(app.issuer);
    // openid-client refuses a discovery document whose issuer is not the URL it was fetched for
    const discovered = await oidc.discovery(new URL(app.issuer), 'any-client', undefined, undefined, { execute: [oidc.allowInsecureRequests] });
    expect(discovered.serverMetadata().issuer).toBe(app.issuer);
  });

  it('stores the keys sealed with the key file beside the data directory, no private key in clear in the files', async () => {
    expect(config.secrets.keyFile).toBe(`${config.dataDir}.key`);
    expect(statSync(config.secrets.keyFile).mode & 0o777).toBe(0o600);
    const key = Buffer.from(readFileSync(config.secrets.keyFile, 'utf8').trim(), 'base64');
    expect(key).toHaveLength(32);
    const stored = JSON.parse(await storedRow());
    expect(isSealed(stored)).toBe(true);
    expect(stored.kid).toBe(keyIdOf(key));
    const keys = JSON.parse(unseal(key, stored, CONTEXT)!) as OidcKeys;
    expect(keys.signing[0].d).toEqual(expect.any(String));
    expect(await publishedKids()).toEqual([keys.signing[0].kid]);
    const secrets = [keys.signing[0].d as string, keys.signing[0].p as string, keys.cookies[0]];
    const row = await storedRow();
    for (const secret of secrets) expect(row.includes(secret), 'a private key in oidc_store').toBe(false);
    for (const { file, bytes } of databaseFiles()) for (const secret of secrets) expect(bytes.includes(secret), `a private key in ${file}`).toBe(false);
    if (kind === 'sqlite') expect(databaseFiles().length).toBeGreaterThan(0);

    // an earlier version stored them in clear: the next start seals them, and the clear copy is gone from the files
    await readDb().updateTable('oidc_store').set({ payload: JSON.stringify(keys) }).where('model', '=', 'RollcallKeys').where('id', '=', 'current').execute();
    await app.stop();
    app = await app.restart();
    expect(await publishedKids()).toEqual([keys.signing[0].kid]);
    const resealed = JSON.parse(await storedRow());
    expect(isSealed(resealed)).toBe(true);
    expect(JSON.parse(unseal(key, resealed, CONTEXT)!)).toEqual(keys);
    for (const { file, bytes } of databaseFiles()) for (const secret of secrets) expect(bytes.includes(secret), `a private key left in ${file} after sealing`).toBe(false);
  });

  it('refuses to start with another secrets key, and re-seals with a new key given the previous one', async () => {
    const oldKey = readFileSync(config.secrets.keyFile, 'utf8').trim();
    const kids = await publishedKids();
    const newKey = randomBytes(32).toString('base64');
    await app.stop();
    // a wrong key: the start fails with its reason (main.ts prints it and exits 1), not a provider answering 500s
    const wrong = { ...config, secrets: { ...config.secrets, key: newKey } };
    await expect(startTestApp(kind, {}, wrong)).rejects.toThrow(/sealed with another secrets key \(key id [\w-]+\) than ROLLCALL_SECRETS_KEY \(key id [\w-]+\)/);

    // rotation: the new key, with the old one as ROLLCALL_SECRETS_KEY_PREVIOUS, re-seals at start
    app = await startTestApp(kind, {}, { ...config, secrets: { ...config.secrets, key: newKey, previousKey: oldKey } });
    config = app.config;
    expect(await publishedKids()).toEqual(kids);
    expect(JSON.parse(await storedRow()).kid).toBe(keyIdOf(Buffer.from(newKey, 'base64')));
    // from now on the new key alone opens them, and the old one no longer does
    await restartWith({ previousKey: null });
    expect(await publishedKids()).toEqual(kids);
    expect((await http(app.url).get('/oidc/.well-known/openid-configuration')).status).toBe(200);
    await app.stop();
    await expect(startTestApp(kind, {}, { ...config, secrets: { ...config.secrets, key: oldKey } })).rejects.toThrow(/sealed with another secrets key/);
    app = await startTestApp(kind, {}, config);
  });
});
