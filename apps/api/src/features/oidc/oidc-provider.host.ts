import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ACCOUNT_STATUS, ERROR_STATUS } from '@rollcall/contracts';
import type { Express, NextFunction, Request, Response } from 'express';
import type { Kysely } from 'kysely';
import type { default as Provider, Configuration, KoaContextWithOIDC, Account, Grant } from 'oidc-provider' with { 'resolution-mode': 'import' };
import type { Clock } from '../../platform/runtime/clock';
import type { AppConfig } from '../../platform/config/app-config';
import { APP_CONFIG, CLOCK, EVENT_STORE, READ_DB } from '../../platform/tokens';
import type { EventStore } from '../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../platform/read-db/read-database';
import { accountDecider, accountStream, fold, hasSecondFactor, secondFactorDecider, secondFactorStream, type AccountEvent, type SecondFactorEvent, type SecondFactorState } from '@rollcall/domain';
import type { StoredEvent } from '../../platform/event-store/event-store.port';
import { secondFactorRequiredFor } from '../auth/second-factor/second-factor-requirement';
import { releasedSsoClaims } from '../sso-claims/released-sso-claims';
import { recordOidcActivity, type OidcActivity } from './oidc-audit';
import { ApplicationClientAdapter, clientSecretMatches } from './oidc-clients';
import { loadSecretsKeys, type SecretsKeys } from '../../platform/secrets/secrets-key';
import { loadOrCreateOidcKeys, rotateOidcSigningKey, type OidcKeys } from './oidc-keys';
import { errorPage, logoutPage, signedOutPage } from './oidc-pages';
import { applicationOfResource, applicationRolesOf, applicationScopes, grantableResourceScopes, isOpenIdScope, OPENID_SCOPES, resourceOf, SCOPE_CLAIMS } from './oidc-scopes';
import { OidcStoreAdapter, setupOidcStore } from './oidc-store';

/** How long each artifact lives (seconds); the authorization code's minute is RFC 6749's recommended maximum. */
export const OIDC_TTL = { AuthorizationCode: 60, AccessToken: 3600, ClientCredentials: 600, IdToken: 3600, RefreshToken: 14 * 86_400, Interaction: 3600, Session: 14 * 86_400, Grant: 14 * 86_400 };

/**
 * The URL the server says it runs at (create-app.ts prints the same): http://HOST:PORT, where an
 * unspecified bind address (0.0.0.0, ::), which no browser can be sent to, reads localhost.
 */
export const listeningUrl = (host: string, port: number) => reachable(`http://${host.includes(':') ? `[${host}]` : host}:${port}`);
const reachable = (url: string) => url.replace(/^http:\/\/(?:0\.0\.0\.0|\[::\])(?=:\d+$)/, 'http://localhost');

/** the error oidc-provider gives a client using a grant type it is not registered for (RFC 6749 section 5.2 names it unauthorized_client) */
const GRANT_TYPE_NOT_ALLOWED = 'requested grant type is not allowed for this client';

/** The provider's own pages post forms to relying parties (form_post, the sign-out redirect): their CSP must allow it. */
function providerCsp(response: ServerResponse): void {
  const csp = response.getHeader('content-security-policy');
  if (typeof csp === 'string') response.setHeader('content-security-policy', csp.replace(/form-action [^;]*/, "form-action 'self' https: http:"));
}

/**
 * The provider could not be built (the error is in the log): 503, which the caller may try again; the
 * next request builds it again.
 */
function unavailable(response: Response): void {
  if (response.headersSent) return;
  response.setHeader('Cache-Control', 'no-store');
  response.status(ERROR_STATUS['server.unavailable']).json({ error: { code: 'server.unavailable', message: 'The OpenID Connect provider could not be started. Try again shortly' } });
}

/** The account's row when it may sign in now: not deleted, disabled, awaiting activation or expired. */
async function usableAccount(db: Kysely<ReadDatabase>, id: string, now: Date) {
  const row = await db.selectFrom('accounts_v2').select(['id', 'status_id', 'expires_at']).where('id', '=', id).executeTakeFirst();
  if (!row || row.status_id === ACCOUNT_STATUS.disabled || row.status_id === ACCOUNT_STATUS.awaitingActivation) return undefined;
  if (row.expires_at !== null && row.expires_at <= now.toISOString()) return undefined;
  return row;
}

/** account events after which a provider session's earlier sign-in no longer counts */
const ACCOUNT_CHANGES_ENDING_SIGN_IN = new Set(['PasswordChanged', 'PasswordChangeRequired', 'AccountLocked']);
/** second-factor events that change what the account signs in with */
const FACTOR_CHANGES = new Set(['TotpEnrolled', 'TotpRemoved', 'PasskeyRegistered', 'PasskeyRemoved', 'SecondFactorsReset']);

/** the authorization request asks for the second-factor level in acr_values (the claims parameter is not enabled) */
function secondFactorAsked(ctx: KoaContextWithOIDC): boolean {
  return typeof ctx.oidc.params?.acr_values === 'string' && ctx.oidc.params.acr_values.split(' ').includes(ACR_SECOND_FACTOR);
}

/** the ID token's `acr` after a password alone, and after a password and a second factor (docs/adr/0025) */
export const ACR_PASSWORD = 'urn:rollcall:acr:password';
export const ACR_SECOND_FACTOR = 'urn:rollcall:acr:second-factor';

/**
 * What a sign-in's `amr` may still claim, and its `acr`, given the account's second factors now: `otp`
 * only with an authenticator app or an unused recovery code, a passkey's `hwk`, `user` and `mfa` only
 * with a passkey; the second-factor level only with `otp` or `hwk` left (docs/adr/0025).
 */
export function stillProven(amr: readonly string[], factors: Pick<SecondFactorState, 'totp' | 'passkeys' | 'recoveryCodes'>): { amr: string[]; acr: string } {
  const held = new Set(['pwd']);
  if (factors.totp?.confirmed || factors.recoveryCodes.some((code) => code !== null)) held.add('otp');
  if (factors.passkeys.length > 0) for (const method of ['hwk', 'user', 'mfa']) held.add(method);
  const kept = amr.filter((method) => held.has(method));
  return { amr: kept, acr: kept.includes('otp') || kept.includes('hwk') ? ACR_SECOND_FACTOR : ACR_PASSWORD };
}

/** what the token endpoint's check reads of a code or refresh token (oidc-provider's models) */
interface GrantSource {
  kind: string;
  authTime?: number;
  iat?: number;
  amr?: string[];
  acr?: string;
  destroy(): Promise<void>;
}

/** oidc-provider's module (ESM, so a dynamic import; types only at compile time) */
type ProviderModule = typeof import('oidc-provider', { with: { 'resolution-mode': 'import' } });

/** A provider built for one generation of the keys and the issuer, with its request handler. */
interface BuiltProvider {
  generation: number;
  provider: Provider;
  handler: (req: IncomingMessage, res: ServerResponse) => void;
}

/**
 * The OpenID Connect provider (node-oidc-provider 9, docs/adr/0014), mounted under /oidc on the
 * Express instance with issuer ROLLCALL_PUBLIC_URL + /oidc (unset: the URL the server prints, so a
 * relying party discovering it at that URL finds the issuer it asked for). oidc-provider is ESM-only and the API is
 * CommonJS, so it is loaded with a dynamic import() (kept as is by TypeScript's node16 output).
 *
 * The provider is loaded and built at the first request under /oidc (an API whose applications use no
 * single sign-on never holds it), and built again at the next request after the signing keys rotate
 * or the issuer changes; requests in flight finish on the instance they started on.
 */
@Injectable()
export class OidcProviderHost {
  private readonly logger = new Logger('OidcProvider');
  readonly clients: ApplicationClientAdapter;
  issuer: string;
  private keys: OidcKeys | null = null;
  private secrets: SecretsKeys | null = null;
  /** moves on when the keys or the issuer change: a provider built for an earlier one is built again at the next request */
  private generation = 0;
  private built: BuiltProvider | null = null;
  /** the build in progress, which every request arriving meanwhile waits for */
  private pending: { generation: number; promise: Promise<BuiltProvider> } | null = null;

  constructor(
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.clients = new ApplicationClientAdapter(db);
    this.issuer = `${config.publicUrl ?? listeningUrl(config.host, config.port)}/oidc`;
  }

  /** the running provider: the /oidc routes (the interaction routes among them) are answered only once it is built */
  current(): Provider {
    if (!this.built) throw new Error('the OpenID Connect provider is not built yet');
    return this.built.provider;
  }

  /**
   * Creates the store and the keys if need be and mounts /oidc (before the console's catch-all). The
   * keys are opened here, so a secrets key that opens nothing stops the start; the provider itself
   * (oidc-provider with koa, jose and their dependencies, about 48 MB of an idle API that no relying
   * party may ever use) is loaded and built at the first request under /oidc.
   */
  async mount(app: Express, interactions: (req: Request, res: Response, next: NextFunction) => void): Promise<void> {
    await setupOidcStore(this.db);
    // a missing, malformed or wrong secrets key stops the start here, with its reason (never a 500 per request)
    this.secrets = loadSecretsKeys(this.config);
    this.keys = await loadOrCreateOidcKeys(this.db, this.secrets);
    app.use('/oidc', (req: Request, res: Response, next: NextFunction) => {
      providerCsp(res);
      this.ready()
        .then(
          (built) => (req.path.startsWith('/interaction/') ? interactions(req, res, next) : built.handler(req, res)),
          () => unavailable(res),
        )
        .catch(next);
    });
  }

  /**
   * The server listens at `url` (create-app.ts, once the port is known): without ROLLCALL_PUBLIC_URL
   * the issuer is that URL's, so a provider built for another (PORT=0: the port was only chosen at
   * listen) is built again. Returns the issuer, which the server prints.
   */
  async listeningAt(url: string): Promise<string> {
    const issuer = `${this.config.publicUrl ?? reachable(url)}/oidc`;
    if (issuer !== this.issuer) {
      this.issuer = issuer;
      this.generation += 1;
    }
    return this.issuer;
  }

  /**
   * A new signing key signs from now on; the previous one stays in the JWKS. Returns the published key
   * ids, newest first. The next request under /oidc is answered by a provider built with them.
   */
  async rotateSigningKey(): Promise<string[]> {
    const keys = await rotateOidcSigningKey(this.db, this.secrets ?? loadSecretsKeys(this.config));
    this.keys = keys;
    this.generation += 1;
    return keys.signing.map((key) => key.kid);
  }

  /**
   * The provider for the current keys and issuer, built at the first request that needs it. Requests
   * arriving during a build wait for that one build; a failed build is not kept, the next request
   * tries again. A build overtaken by a rotation or a new issuer is not used: its waiters wait for the
   * next one. Requests in flight finish on the instance they started on.
   */
  private async ready(): Promise<BuiltProvider> {
    for (;;) {
      const generation = this.generation;
      if (this.built?.generation === generation) return this.built;
      if (this.pending?.generation !== generation) this.pending = { generation, promise: this.startBuild(generation) };
      const built = await this.pending.promise;
      if (built.generation === this.generation) return built;
    }
  }

  private startBuild(generation: number): Promise<BuiltProvider> {
    const promise: Promise<BuiltProvider> = this.build(generation, this.keys!, this.issuer)
      .then(
        (built) => {
          if (built.generation === this.generation) this.built = built;
          return built;
        },
        (error: unknown) => {
          this.logger.error(`the OpenID Connect provider could not be built (the next request tries again): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
          throw error;
        },
      )
      .finally(() => {
        if (this.pending?.promise === promise) this.pending = null;
      });
    return promise;
  }

  /** oidc-provider's module, loaded at the first build (a method of its own, so that a test can make it fail) */
  protected providerModule(): Promise<ProviderModule> {
    return import('oidc-provider');
  }

  private async build(generation: number, keys: OidcKeys, issuer: string): Promise<BuiltProvider> {
    const { default: ProviderClass, errors, interactionPolicy } = await this.providerModule();
    const provider = new ProviderClass(issuer, this.configuration(keys, errors, this.policy(interactionPolicy)));
    // behind a trusted proxy, X-Forwarded-Proto decides whether cookies are secure
    provider.proxy = this.config.trustedProxies.length > 0;
    // the secret the provider holds is its hash (docs/adr/0014): hash what is presented, compare in constant time
    const clientPrototype = provider.Client.prototype as unknown as { compareClientSecret(actual: string): Promise<boolean>; clientSecret?: string };
    clientPrototype.compareClientSecret = function compareClientSecret(this: { clientSecret?: string }, actual: string) {
      return clientSecretMatches(this.clientSecret, actual);
    };
    this.listen(provider);
    return { generation, provider, handler: provider.callback() as unknown as (req: IncomingMessage, res: ServerResponse) => void };
  }

  /**
   * oidc-provider's prompts, with one check first: a browser whose provider session is of an account
   * that may no longer sign in (disabled, expired, deleted, awaiting activation) has that session
   * ended here and is asked to sign in again. Without it the consent checks read a grant that was
   * never loaded (findAccount refused the account) and every /oidc/auth of that browser was a 500.
   */
  private policy(interactionPolicy: ProviderModule['interactionPolicy']) {
    const policy = interactionPolicy.base();
    const login = policy.get('login')!;
    login.checks.add(
      new interactionPolicy.Check('account_unusable', 'The account signed in to this browser can no longer sign in', (ctx) => {
        const { session } = ctx.oidc;
        if (!session?.accountId || ctx.oidc.account) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
        // end the provider session's sign-in (the session object stays, so the sign-in that follows resumes on it)
        const target = session as unknown as Record<string, unknown>;
        for (const member of ['accountId', 'loginTs', 'amr', 'acr', 'authorizations', 'transient']) delete target[member];
        target.touched = true;
        return interactionPolicy.Check.REQUEST_PROMPT;
      }),
      0,
    );
    login.checks.add(
      new interactionPolicy.Check('sign_in_outdated', 'The sign-in of this browser no longer meets what the account or the application requires', 'login_required', async (ctx) => {
        const { session } = ctx.oidc;
        // a sign-in made in this very interaction passed every rule of the sign-in commands
        if (!session?.accountId || !ctx.oidc.account || ctx.oidc.result?.login) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
        const accountId = session.accountId;
        if (await this.signInOutdated(accountId, session.loginTs)) {
          // the session's sign-in ends for good (a lock that runs out, a factor removed again, does not bring it back)
          const target = session as unknown as Record<string, unknown>;
          if (target.accountId === accountId) for (const member of ['accountId', 'loginTs', 'amr', 'acr', 'authorizations', 'transient']) delete target[member];
          target.touched = true;
          return interactionPolicy.Check.REQUEST_PROMPT;
        }
        // the application asks for a second factor (acr_values) that this sign-in did not use
        return secondFactorAsked(ctx) && session.acr !== ACR_SECOND_FACTOR ? interactionPolicy.Check.REQUEST_PROMPT : interactionPolicy.Check.NO_NEED_TO_PROMPT;
      }),
      1,
    );
    return policy;
  }

  /**
   * Is the provider session's sign-in (at `loginTs`, epoch seconds) no longer good for this account
   * (docs/security.md, 'OpenID Connect provider')? It is when the account is locked or must change
   * its password, when the policy requires a second factor it has not enrolled, and when since that
   * sign-in its password was changed (by itself or an administrator), it was locked, or its second
   * factors changed (enrolled, registered, removed, reset). Read from the streams, the truth (locks
   * are not projected). Events of the sign-in's own second count as after it: a sign-in again is
   * asked once too often rather than a change missed. At the token endpoint (`bySignInEvent`) the
   * sign-in is its AccountSignedIn (the last before the end of `loginTs`'s second): account events
   * after it in the stream, and factor events of its millisecond or later, count, so a code exchanged
   * right after a sign-in that followed a password change is not refused.
   */
  private async signInOutdated(accountId: string, loginTs: number | undefined, bySignInEvent = false): Promise<boolean> {
    let since = (loginTs ?? 0) * 1000;
    const [accountEvents, factorEvents] = await this.store.readStreams([{ streamId: accountStream(accountId) }, { streamId: secondFactorStream(accountId) }]);
    let accountAfter = (event: StoredEvent, _index: number) => Date.parse(event.metadata.occurredAt) >= since;
    if (bySignInEvent) {
      // the sign-in's own AccountSignedIn: the last one before the end of the second it was made in
      const end = ((loginTs ?? 0) + 1) * 1000;
      const signedIn = accountEvents.findLastIndex((event) => event.type === 'AccountSignedIn' && Date.parse(event.metadata.occurredAt) < end);
      if (signedIn >= 0) {
        since = Date.parse(accountEvents[signedIn].metadata.occurredAt);
        accountAfter = (_event, index) => index > signedIn;
      }
    }
    const after = (event: StoredEvent) => Date.parse(event.metadata.occurredAt) >= since;
    if (accountEvents.some((event, index) => ACCOUNT_CHANGES_ENDING_SIGN_IN.has(event.type) && accountAfter(event, index))) return true;
    if (factorEvents.some((event) => FACTOR_CHANGES.has(event.type) && after(event))) return true;
    const account = fold(accountDecider, accountEvents.map((event) => ({ type: event.type, data: event.data }) as AccountEvent));
    if (account.status !== 'created') return true;
    if (account.lockedUntil !== null && account.lockedUntil > this.clock.now().toISOString()) return true;
    if (account.statusId === ACCOUNT_STATUS.passwordChangeRequired) return true;
    if (!(await secondFactorRequiredFor(this.db, accountId, account.policyId))) return false;
    return !hasSecondFactor(fold(secondFactorDecider, factorEvents.map((event) => ({ type: event.type, data: event.data }) as SecondFactorEvent)));
  }

  /**
   * A code or refresh token at the token endpoint (docs/security.md, 'OpenID Connect provider'): refused
   * (`invalid_grant`, and a refresh token is destroyed) when its sign-in (`authTime`) no longer counts
   * by `signInOutdated` (a password change, a lock, a factor enrolled, removed or reset since, or the
   * account locked, forced to change its password, or without a factor its policy requires). Otherwise
   * what it says the sign-in proved (`amr`, `acr`, copied into the ID token and any rotated refresh
   * token) keeps only the methods the account still holds: never a code or passkey it no longer has.
   */
  private async checkGrantUse(accountId: string, token: GrantSource, InvalidGrant: new (description: string) => Error): Promise<void> {
    if (await this.signInOutdated(accountId, token.authTime ?? token.iat, true)) {
      if (token.kind === 'RefreshToken') await token.destroy();
      throw new InvalidGrant(`the sign-in behind this ${token.kind === 'RefreshToken' ? 'refresh token' : 'code'} no longer counts (the password, a second factor or the account's state changed since): sign in again`);
    }
    if (!token.amr?.length) return;
    const [factorEvents] = await this.store.readStreams([{ streamId: secondFactorStream(accountId) }]);
    Object.assign(token, stillProven(token.amr, fold(secondFactorDecider, factorEvents.map((event) => ({ type: event.type, data: event.data }) as SecondFactorEvent))));
  }

  private configuration(keys: OidcKeys, errors: ProviderModule['errors'], policy: NonNullable<Configuration['interactions']>['policy']): Configuration {
    const { InvalidTarget, InvalidGrant } = errors;
    const db = this.db;
    const clients = this.clients;
    const now = () => this.clock.now();
    return {
      adapter: (name: string) => (name === 'Client' ? clients : new OidcStoreAdapter(db, name)),
      clients: [],
      jwks: { keys: keys.signing },
      cookies: { keys: keys.cookies },
      scopes: [...OPENID_SCOPES],
      // what a sign-in proved, as the ID token's acr (its amr lists the methods, RFC 8176): docs/adr/0025
      acrValues: [ACR_PASSWORD, ACR_SECOND_FACTOR],
      // acr and amr with openid: every ID token says how the account signed in (docs/adr/0025); as
      // standalone claims the provider would add them only when a relying party asks by name
      claims: { ...SCOPE_CLAIMS, openid: [...SCOPE_CLAIMS.openid, 'acr', 'amr'] },
      // the granted scopes' claims go into the ID token too, not only userinfo (docs/adr/0014, 'Claims')
      conformIdTokenClaims: false,
      responseTypes: ['code'],
      // a client registered as client_secret_basic may also post its secret (oidc-provider accepts both for it)
      clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
      enabledJWA: { idTokenSigningAlgValues: ['RS256'], userinfoSigningAlgValues: ['RS256'], introspectionSigningAlgValues: ['RS256'], authorizationSigningAlgValues: ['RS256'] },
      ttl: OIDC_TTL,
      pkce: { required: (_ctx, client) => client.clientAuthMethod === 'none' || clients.requirePkce.get(client.clientId) !== false },
      interactions: { policy, url: (_ctx, interaction) => `/oidc/interaction/${interaction.uid}` },
      // CORS for single-page relying parties: only from the origins of their own redirect URIs
      clientBasedCORS: (_ctx, origin, client) => (client.redirectUris ?? []).some((uri) => new URL(uri).origin === origin),
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        introspection: {
          enabled: true,
          // a token whose account may no longer sign in is not active, whatever its expiry
          // (docs/security.md, 'OpenID Connect provider')
          allowedPolicy: async (ctx, client, token) => {
            if (client.clientAuthMethod === 'none' && token.clientId !== ctx.oidc.client?.clientId) return false;
            const accountId = 'accountId' in token ? token.accountId : undefined;
            return !accountId || (await usableAccount(db, accountId, now())) !== undefined;
          },
        },
        revocation: { enabled: true },
        userinfo: { enabled: true },
        rpInitiatedLogout: {
          enabled: true,
          logoutSource: (ctx, form) => {
            ctx.type = 'html';
            ctx.body = logoutPage(form, ctx.oidc.client?.clientName ?? null);
          },
          postLogoutSuccessSource: (ctx) => {
            ctx.type = 'html';
            ctx.body = signedOutPage(ctx.oidc.client?.clientName ?? null);
          },
        },
        resourceIndicators: {
          enabled: true,
          // permission slugs and declared scopes are scopes of the application's own API
          defaultResource: (ctx) => (ctx.oidc.client ? resourceOf(ctx.oidc.client.clientId) : undefined) as string,
          // without `resource` at the token endpoint the access token is the userinfo one
          useGrantedResource: () => false,
          getResourceServerInfo: async (_ctx, resourceIndicator, client) => {
            const applicationId = applicationOfResource(resourceIndicator);
            if (applicationId !== client.clientId) throw new InvalidTarget('resource must be this application (urn:rollcall:application:{client_id})');
            const offered = await applicationScopes(db, applicationId);
            if (!offered) throw new InvalidTarget();
            return { scope: [...offered.resourceScopes].join(' '), audience: resourceIndicator, accessTokenFormat: 'jwt', accessTokenTTL: OIDC_TTL.AccessToken, jwt: { sign: { alg: 'RS256' } } };
          },
        },
      },
      findAccount: async (ctx, sub, token) => {
        // read on every call: a disabled, expired or deleted account gets no token and no claims
        const row = await usableAccount(db, sub, now());
        if (!row) return undefined;
        // a code or refresh token is used only while its sign-in still counts (review R24b, F2)
        if (token && (token.kind === 'RefreshToken' || token.kind === 'AuthorizationCode')) await this.checkGrantUse(sub, token as unknown as GrantSource, InvalidGrant);
        const clientId = ctx.oidc.client?.clientId;
        const account: Account = {
          accountId: row.id,
          claims: async (_use, scope) => {
            const scopes = (scope ?? '').split(' ').filter(Boolean);
            const released = await releasedSsoClaims(db, row.id, scopes);
            const roles = scopes.includes('roles') && clientId ? await applicationRolesOf(db, row.id, clientId) : {};
            return { ...released, ...roles, sub: row.id };
          },
        };
        return account;
      },
      loadExistingGrant: (ctx) => this.loadExistingGrant(ctx),
      renderError: (ctx, out, error) => {
        if (!(error as { expose?: boolean }).expose) this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
        ctx.type = 'html';
        ctx.body = errorPage(out as unknown as Record<string, unknown>);
      },
    };
  }

  /**
   * The grant for this authorization request, from the account's consent read model (docs/adr/0014,
   * 'Consent'): the scopes consented to that the account may still have; requested permissions it
   * does not hold are marked rejected, so they are left out without asking. A consent given in this
   * very interaction is used as it is (the read model may not show it yet). Nothing consented: no
   * grant, and the consent page asks.
   */
  private async loadExistingGrant(ctx: KoaContextWithOIDC): Promise<Grant | undefined> {
    const { provider, client, session } = ctx.oidc;
    if (!client || !session?.accountId) return undefined;
    const justGiven = ctx.oidc.result?.consent?.grantId as string | undefined;
    if (justGiven) return provider.Grant.find(justGiven);
    const accountId = session.accountId;
    const row = await this.db.selectFrom('application_consents_v1').select('scopes').where('account_id', '=', accountId).where('application_id', '=', client.clientId).executeTakeFirst();
    if (!row) return undefined;
    const consented = JSON.parse(row.scopes) as string[];
    const offered = await applicationScopes(this.db, client.clientId);
    if (!offered) return undefined;
    const grantable = await grantableResourceScopes(this.db, accountId, client.clientId, offered);
    const grant = new provider.Grant({ accountId, clientId: client.clientId });
    grant.addOIDCScope(consented.filter(isOpenIdScope).join(' '));
    const resource = resourceOf(client.clientId);
    const resourceScopes = consented.filter((scope) => grantable.has(scope));
    if (resourceScopes.length) grant.addResourceScope(resource, resourceScopes.join(' '));
    const refused = [...ctx.oidc.requestParamScopes].filter((scope) => offered.resourceScopes.has(scope) && !grantable.has(scope));
    if (refused.length) grant.rejectResourceScope(resource, refused.join(' '));
    // One grant per account and client in a browser session, saved again under its id with what is
    // consented now: the tokens of an earlier sign-in of this session stay valid (a relying party may
    // keep several sessions of one user; destroying the grant revoked them all), and repeated sign-ins
    // leave no trail of grants behind.
    const previous = session.grantIdFor(client.clientId);
    const reused = previous ? await provider.Grant.find(previous) : undefined;
    if (reused && reused.accountId === accountId && reused.clientId === client.clientId) grant.jti = reused.jti;
    await grant.save();
    return grant;
  }

  private listen(provider: Provider): void {
    const record = (ctx: KoaContextWithOIDC, activity: OidcActivity) =>
      void recordOidcActivity(this.store, ctx.req, activity, this.clock.now()).catch((error: unknown) => this.logger.error(`recording ${activity.type} failed: ${String(error)}`));
    const accountOf = (ctx: KoaContextWithOIDC): string | null => {
      const entities = ctx.oidc.entities as Record<string, { accountId?: string } | undefined>;
      return entities.Account?.accountId ?? entities.AuthorizationCode?.accountId ?? entities.RefreshToken?.accountId ?? entities.Session?.accountId ?? ctx.oidc.session?.accountId ?? null;
    };
    const clientOf = (ctx: KoaContextWithOIDC) => ctx.oidc.client?.clientId ?? null;
    const errorOf = (error: unknown) => {
      const e = error as { error?: string; error_description?: string };
      return { error: e.error ?? 'server_error', errorDescription: e.error_description ?? null };
    };
    // first, so that the answer and the activity record both carry the standard code
    provider.on('grant.error', (ctx: KoaContextWithOIDC, error: unknown) => {
      const e = error as { error?: string; error_description?: string };
      if (e.error !== 'invalid_request' || e.error_description !== GRANT_TYPE_NOT_ALLOWED) return;
      e.error = 'unauthorized_client';
      const body = ctx.body as { error?: string } | undefined;
      if (body && typeof body === 'object' && body.error === 'invalid_request') body.error = 'unauthorized_client';
    });
    provider.on('grant.success', (ctx: KoaContextWithOIDC) => {
      const entities = ctx.oidc.entities as Record<string, { scope?: string } | undefined>;
      const scope = entities.AccessToken?.scope ?? entities.ClientCredentials?.scope ?? null;
      record(ctx, { type: 'OidcTokenIssued', applicationId: clientOf(ctx), accountId: accountOf(ctx), grantType: (ctx.oidc.params?.grant_type as string) ?? null, scope });
    });
    provider.on('grant.error', (ctx: KoaContextWithOIDC, error: unknown) =>
      record(ctx, { type: 'OidcTokenRefused', applicationId: clientOf(ctx), accountId: accountOf(ctx), grantType: (ctx.oidc.params?.grant_type as string) ?? null, ...errorOf(error) }),
    );
    provider.on('authorization.error', (ctx: KoaContextWithOIDC, error: unknown) => record(ctx, { type: 'OidcAuthorizationRefused', applicationId: clientOf(ctx), accountId: accountOf(ctx), ...errorOf(error) }));
    provider.on('end_session.success', (ctx: KoaContextWithOIDC) => record(ctx, { type: 'OidcSessionEnded', applicationId: clientOf(ctx), accountId: accountOf(ctx) }));
    provider.on('server_error', (_ctx: unknown, error: unknown) => this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error)));
  }
}
