import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { http, signIn, startTestApp, storageKinds, type StorageKind, type TestApp } from '../../../test/test-app';
import { OidcProviderHost } from './oidc-provider.host';

/** the host's seam that loads oidc-provider's module: called once per build of the provider */
type ModuleLoading = { providerModule(): Promise<unknown> };

/**
 * The provider at first use (docs/adr/0014): an idle API holds no oidc-provider; the first request
 * under /oidc loads and builds it, once however many requests arrive together; a rotation or a new
 * issuer before that first request is what the built provider serves; a build that fails answers 503
 * and the next request builds again.
 */
describe.each(storageKinds())('the OpenID Connect provider at first use (%s)', (kind: StorageKind) => {
  let app: TestApp;

  afterEach(() => {
    vi.restoreAllMocks();
  });

  afterAll(async () => {
    await app?.destroy();
  });

  /** a fresh start on the same data, nothing asked under /oidc yet, and a count of the provider's builds */
  const freshStart = async () => {
    if (app) {
      await app.stop();
      app = await app.restart();
    } else {
      app = await startTestApp(kind);
    }
    return vi.spyOn(app.app.get(OidcProviderHost) as unknown as ModuleLoading, 'providerModule');
  };
  const jwksKids = async () => ((await http(app.url).get('/oidc/jwks')).body.keys as Array<{ kid: string }>).map((key) => key.kid);

  it('builds the provider once for 20 first requests arriving together, with the issuer the server printed', async () => {
    const builds = await freshStart();
    expect(builds).not.toHaveBeenCalled();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => http(app.url).get(i % 2 ? '/oidc/.well-known/openid-configuration' : '/oidc/jwks')));
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 20 }, () => 200));
    expect(builds).toHaveBeenCalledTimes(1);
    // PORT=0: the issuer was only known at listen, after the keys were loaded
    expect(answers[1].body.issuer).toBe(`${app.url}/oidc`);
    expect(answers[1].body.issuer).toBe(app.issuer);
    expect((await http(app.url).get('/oidc/.well-known/openid-configuration')).status).toBe(200);
    expect(builds).toHaveBeenCalledTimes(1);
  });

  it('serves a signing key rotated before the first request, and one rotated after it', async () => {
    const builds = await freshStart();
    const admin = http(app.url, await signIn(app.url));
    const rotated = await admin.post('/api/v2/oidc/keys/rotate');
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(builds).not.toHaveBeenCalled();
    expect(await jwksKids()).toEqual(rotated.body.data.key_ids);
    expect(builds).toHaveBeenCalledTimes(1);

    const again = await admin.post('/api/v2/oidc/keys/rotate');
    expect(again.body.data.key_ids[1]).toBe(rotated.body.data.key_ids[0]);
    expect(await jwksKids()).toEqual(again.body.data.key_ids);
    expect(builds).toHaveBeenCalledTimes(2);
  });

  it('answers a first request with the keys of a rotation made while the provider was being built', async () => {
    const builds = await freshStart();
    const admin = http(app.url, await signIn(app.url));
    let buildStarted!: () => void;
    const started = new Promise<void>((resolve) => (buildStarted = resolve));
    let finishBuild!: () => void;
    const finish = new Promise<void>((resolve) => (finishBuild = resolve));
    builds.mockImplementationOnce(async () => {
      buildStarted();
      await finish;
      return import('oidc-provider');
    });
    const first = http(app.url).get('/oidc/jwks');
    await started;
    const rotated = await admin.post('/api/v2/oidc/keys/rotate');
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    finishBuild();
    expect(((await first).body.keys as Array<{ kid: string }>).map((key) => key.kid)).toEqual(rotated.body.data.key_ids);
    expect(builds).toHaveBeenCalledTimes(2);
  });

  it('answers 503 while the provider cannot be built, and builds it at the next request', async () => {
    const builds = await freshStart();
    // a failure that takes a moment, so that the three requests all wait for this one build
    builds.mockImplementationOnce(async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      throw new Error('oidc-provider could not be loaded (test)');
    });
    const refused = await Promise.all(Array.from({ length: 3 }, () => http(app.url).get('/oidc/.well-known/openid-configuration')));
    for (const answer of refused) {
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({ error: { code: 'server.unavailable', message: 'The OpenID Connect provider could not be started. Try again shortly' } });
      expect(answer.headers.get('cache-control')).toBe('no-store');
    }
    expect(builds).toHaveBeenCalledTimes(1);
    const discovery = await http(app.url).get('/oidc/.well-known/openid-configuration');
    expect(discovery.status).toBe(200);
    expect(discovery.body.issuer).toBe(app.issuer);
    expect(builds).toHaveBeenCalledTimes(2);
  });
});
