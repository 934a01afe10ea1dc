import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';

/**
 * A tiny relying party served by the test: /login sends the browser to Rollcall (authorization code +
 * PKCE, the scopes asked), /callback exchanges the code and shows 'Signed in' with the ID token's
 * claims as JSON (or, with `claimsFrom: 'userinfo'`, what the userinfo endpoint released).
 */
export async function relyingParty(issuer: string, clientId: string, clientSecret: string, scope = 'openid profile email', claimsFrom: 'id_token' | 'userinfo' = 'id_token') {
  const pending = new Map<string, string>();
  let config: oidc.Configuration | null = null;
  let base = '';
  const server: Server = createServer((request, response) => {
    void (async () => {
      config ??= await oidc.discovery(new URL(issuer), clientId, clientSecret, oidc.ClientSecretBasic(clientSecret), { execute: [oidc.allowInsecureRequests] });
      const url = new URL(request.url ?? '/', base);
      if (url.pathname === '/login') {
        const verifier = oidc.randomPKCECodeVerifier();
        const state = oidc.randomState();
        pending.set(state, verifier);
        const target = oidc.buildAuthorizationUrl(config, { redirect_uri: `${base}/callback`, scope, state, code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
        response.writeHead(302, { location: target.href }).end();
        return;
      }
      if (url.pathname === '/callback') {
        const state = url.searchParams.get('state') ?? '';
        const tokens = await oidc.authorizationCodeGrant(config, url, { pkceCodeVerifier: pending.get(state), expectedState: state });
        const claims = claimsFrom === 'userinfo' ? await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub) : tokens.claims();
        response.writeHead(200, { 'content-type': 'text/html' }).end(`<!DOCTYPE html><title>Relying party</title><h1>Signed in</h1><pre id="claims">${JSON.stringify(claims, null, 2)}</pre>`);
        return;
      }
      response.writeHead(404).end();
    })().catch((error: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
