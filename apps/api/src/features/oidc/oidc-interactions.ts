import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ERROR_STATUS, ZAuthenticateInput, ZPasskeyStepInput, ZPasskeyStepOptionsInput, ZSecondFactorStepInput, type ErrorCode, type TPasskeyOptions } from '@rollcall/contracts';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { Kysely } from 'kysely';
import { SignInCommand, type SessionSignIn, type SignInResult } from '../auth/commands/sign-in.handler';
import { CompleteSecondFactorCommand } from '../auth/commands/complete-second-factor.handler';
import { PasskeyStepOptionsCommand } from '../auth/commands/passkey-sign-in.handler';
import { SignOutCommand } from '../auth/commands/sign-out.handler';
import { hashToken } from '../../platform/access/session-token';
import { CommandGateway } from '../../platform/commands/command-gateway';
import { READ_DB } from '../../platform/tokens';
import { mapError } from '../../platform/errors/api-error';
import { servedOrigin } from '../../platform/http/http-pipeline';
import { retryAfterSecondsOf } from '../../platform/http/retry-after';
import { requestContext } from '../../platform/http/request-context.factory';
import { parseWith } from '../../platform/http/zod-body';
import type { ReadDatabase } from '../../platform/read-db/read-database';
import { GiveApplicationConsentCommand } from './commands/give-application-consent.handler';
import { ACR_PASSWORD, ACR_SECOND_FACTOR, OidcProviderHost } from './oidc-provider.host';
import { applicationScopes, grantableResourceScopes, isOpenIdScope, resourceOf } from './oidc-scopes';

/** What the sign-in and consent pages show (GET /oidc/interaction/{uid}/details). */
export interface OidcInteractionDetails {
  uid: string;
  /** the step the provider asks for */
  prompt: 'login' | 'consent';
  application: { id: string; title: string; url: string | null; description: string };
  /** consent only: who is signed in */
  account: { username: string; name: string } | null;
  /** consent only: each scope asked for, with its words (declared scope, permission, or the claim catalogue's) */
  scopes: Array<{ scope: string; description: string; kind: 'openid' | 'scope' | 'permission' }>;
  login_hint: string | null;
}

/** A refusal of the interaction routes themselves, answered with its code's status from the contracts' table. */
class InteractionError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

/**
 * The provider's interaction routes, answered as small JSON calls for the console's sign-in and
 * consent pages (apps/console/src/features/oidc), all under /oidc/interaction/{uid} where the
 * provider's interaction cookie is sent:
 * - GET  {uid}          the console page itself (falls through to the console's index.html)
 * - GET  {uid}/details  what to show
 * - POST {uid}/login    {username, password}: the one sign-in command with every password-policy,
 *                       lockout, status and expiry rule (auth/commands/sign-in.handler.ts); an
 *                       account with a second factor answers {second_factor: {challenge, ...}}
 * - POST {uid}/second-factor {challenge, code} or {challenge, passkey}: the code step (auth/commands/complete-second-factor.handler.ts)
 * - POST {uid}/passkey-options {challenge}: WebAuthn options for the code step with a passkey (docs/adr/0029)
 * - POST {uid}/consent  Accept: the grant, and ApplicationConsentGiven in the account's stream
 * - POST {uid}/abort    Cancel: access_denied to the relying party
 * Each POST answers `{ redirect_to }`, where the page sends the browser on. POST bodies must be JSON,
 * which a cross-site form cannot send without a CORS preflight we never grant.
 */
/**
 * the browser's Origin, a passkey's relying party when ROLLCALL_PUBLIC_URL is unset, only when it names
 * the Host the request came to (servedOrigin, as REST and tRPC take it): a foreign Origin is no relying party
 */
const originOf = (req: Request): string | null => servedOrigin(req.headers.origin, req.headers.host);

@Injectable()
export class OidcInteractions {
  constructor(
    private readonly host: OidcProviderHost,
    private readonly gateway: CommandGateway,
    private readonly commandBus: CommandBus,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
  ) {}

  router(): Router {
    const router = Router();
    const json = express.json({ limit: '16kb', strict: true });
    const route = (handler: (req: Request, res: Response) => Promise<unknown>) => async (req: Request, res: Response) => {
      res.setHeader('Cache-Control', 'no-store');
      try {
        res.json(await handler(req, res));
      } catch (error) {
        this.fail(res, error);
      }
    };
    const onlyJson = (req: Request, res: Response, next: NextFunction) => {
      if (!req.is('application/json')) return void this.fail(res, new InteractionError('request.unsupported_media_type', 'Send the body as application/json'));
      json(req, res, (error?: unknown) => (error ? this.fail(res, new InteractionError('request.malformed_json', 'The body is not valid JSON')) : next()));
    };
    router.get('/interaction/:uid/details', route((req, res) => this.details(req, res)));
    router.post('/interaction/:uid/login', onlyJson, route((req, res) => this.login(req, res)));
    router.post('/interaction/:uid/second-factor', onlyJson, route((req, res) => this.secondFactor(req, res)));
    router.post('/interaction/:uid/passkey-options', onlyJson, route((req, res) => this.passkeyOptions(req, res)));
    router.post('/interaction/:uid/consent', onlyJson, route((req, res) => this.consent(req, res)));
    router.post('/interaction/:uid/abort', onlyJson, route((req, res) => this.abort(req, res)));
    return router;
  }

  private fail(res: Response, error: unknown): void {
    if (error instanceof InteractionError) return void res.status(error.status).json({ error: { code: error.code, message: error.message } });
    // the provider's own refusals (no or expired interaction cookie): standard OAuth errors, never a 500
    const oauth = error as { error?: string; error_description?: string; statusCode?: number; status?: number };
    if (typeof oauth.error === 'string' && (oauth.statusCode ?? oauth.status ?? 500) < 500) {
      return void res.status(oauth.statusCode ?? oauth.status ?? 400).json({ error: { code: `oidc.${oauth.error}`, message: 'This sign-in has expired or was already finished. Go back to the application and start again' } });
    }
    const mapped = mapError(error);
    // a throttled sign-in (auth/sign-in-throttle.ts) says when to try again
    const retryAfter = retryAfterSecondsOf(error);
    if (mapped.status === 429 && retryAfter) res.setHeader('Retry-After', String(retryAfter));
    res.status(mapped.status).json(mapped.body);
  }

  private async interaction(req: Request, res: Response, expected?: 'login' | 'consent') {
    const details = await this.host.current().interactionDetails(req, res);
    if (details.uid !== req.params.uid) throw new InteractionError('oidc.interaction_mismatch', 'This page belongs to another sign-in; go back to the application and start again');
    if (expected && details.prompt.name !== expected) throw new InteractionError('oidc.wrong_step', `This sign-in is at the ${details.prompt.name} step, not ${expected}`);
    return details;
  }

  private async details(req: Request, res: Response): Promise<OidcInteractionDetails> {
    const details = await this.interaction(req, res);
    const clientId = String(details.params.client_id);
    const application = await this.db.selectFrom('applications_v1').select(['id', 'title', 'url', 'description']).where('id', '=', clientId).executeTakeFirst();
    if (!application) throw new InteractionError('application.not_found', 'The application asking for the sign-in no longer exists');
    const prompt = details.prompt.name === 'consent' ? 'consent' : 'login';
    const answer: OidcInteractionDetails = {
      uid: details.uid,
      prompt,
      application,
      account: null,
      scopes: [],
      login_hint: typeof details.params.login_hint === 'string' ? details.params.login_hint : null,
    };
    if (prompt === 'consent' && details.session?.accountId) {
      const account = await this.db.selectFrom('accounts_v2').select(['username', 'first_name', 'last_name']).where('id', '=', details.session.accountId).executeTakeFirst();
      answer.account = account ? { username: account.username, name: `${account.first_name} ${account.last_name}`.trim() } : null;
      answer.scopes = (await this.consentScopes(details.session.accountId, clientId, details.prompt.details, details.params.scope)).shown;
    }
    return answer;
  }

  /**
   * The scopes the consent step asks about: every scope requested (the provider's missing ones, and
   * with prompt=consent those consented before too, which the provider does not count as missing), the
   * resource scopes only where the account may have them.
   */
  private async consentScopes(accountId: string, clientId: string, promptDetails: Record<string, unknown>, requestedScope: unknown) {
    const offered = await applicationScopes(this.db, clientId);
    if (!offered) throw new InteractionError('application.not_found', 'The application asking for the sign-in no longer exists');
    const grantable = await grantableResourceScopes(this.db, accountId, clientId, offered);
    const requested = typeof requestedScope === 'string' ? requestedScope.split(' ').filter(Boolean) : [];
    const openid = [...new Set([...((promptDetails.missingOIDCScope as string[] | undefined) ?? []), ...requested])].filter(isOpenIdScope);
    const requestedResource = [...Object.values((promptDetails.missingResourceScopes as Record<string, string[]> | undefined) ?? {}).flat(), ...requested.filter((scope) => offered.resourceScopes.has(scope))];
    const resource = [...new Set(requestedResource)].filter((scope) => grantable.has(scope));
    const refused = [...new Set(requestedResource)].filter((scope) => !grantable.has(scope));
    const shown = [...openid, ...resource].map((scope) => ({
      scope,
      description: offered.descriptions.get(scope) ?? scope,
      kind: isOpenIdScope(scope) ? ('openid' as const) : offered.permissionSlugs.has(scope) ? ('permission' as const) : ('scope' as const),
    }));
    return { openid, resource, refused, shown, claims: (promptDetails.missingOIDCClaims as string[] | undefined) ?? [] };
  }

  /**
   * The password step. An account with a second factor answers `{second_factor: {challenge, methods,
   * expires_at}}` and the page asks for the code (POST {uid}/second-factor); the same sign-in
   * commands as the console and REST, under the same throttle and lockout (docs/adr/0025).
   */
  private async login(req: Request, res: Response) {
    await this.interaction(req, res, 'login');
    const input = parseWith(ZAuthenticateInput, req.body);
    const outcome = await this.gateway.execute<SignInResult>(new SignInCommand(input, requestContext(req, null)));
    const result = outcome.value;
    if (result.kind === 'second_factor_required') return { second_factor: { challenge: result.challenge, methods: result.methods, expires_at: result.expiresAt } };
    return this.finishLogin(req, res, result);
  }

  private async secondFactor(req: Request, res: Response) {
    await this.interaction(req, res, 'login');
    const body = req.body as Record<string, unknown> | null;
    const input = body && typeof body === 'object' && 'passkey' in body ? parseWith(ZPasskeyStepInput, body) : parseWith(ZSecondFactorStepInput, body);
    const outcome = await this.gateway.execute<SessionSignIn>(new CompleteSecondFactorCommand(input, requestContext(req, null), originOf(req)));
    return this.finishLogin(req, res, outcome.value);
  }

  /** options for the code step with a passkey: the sign-in challenge names the account (auth/commands/passkey-sign-in.handler.ts) */
  private async passkeyOptions(req: Request, res: Response) {
    await this.interaction(req, res, 'login');
    const input = parseWith(ZPasskeyStepOptionsInput, req.body);
    return (await this.gateway.execute<TPasskeyOptions>(new PasskeyStepOptionsCommand(input.challenge, originOf(req), requestContext(req, null)))).value;
  }

  private async finishLogin(req: Request, res: Response, result: SessionSignIn) {
    const { accountId, token } = result;
    const context = requestContext(req, null);
    // the command also started a console session; the provider keeps its own, so that one ends at once
    const session = await this.db.selectFrom('sessions_v1').select('id').where('token_hash', '=', hashToken(token)).executeTakeFirst();
    if (session) await this.commandBus.execute(new SignOutCommand(session.id, { ...context, actor: accountId, actorKind: 'account' }));
    if (result.passwordChangeRequired) throw new InteractionError('auth.password_change_required', 'Your password must be changed first: sign in to Rollcall, change it, then come back to the application');
    if (result.secondFactorEnrolmentRequired) {
      throw new InteractionError('auth.second_factor_enrolment_required', 'Your password policy requires a second factor: sign in to Rollcall, enrol one, then come back to the application');
    }
    // RFC 8176 methods and the level they reach, into the ID token (docs/adr/0025)
    // a passkey (`hwk`) counts as a second factor like a code (`otp`), docs/adr/0029
    const login = { accountId, amr: result.amr, acr: result.amr.includes('otp') || result.amr.includes('hwk') ? ACR_SECOND_FACTOR : ACR_PASSWORD };
    const redirectTo = await this.host.current().interactionResult(req, res, { login }, { mergeWithLastSubmission: false });
    return { redirect_to: redirectTo };
  }

  private async consent(req: Request, res: Response) {
    const details = await this.interaction(req, res, 'consent');
    const accountId = details.session!.accountId;
    const clientId = String(details.params.client_id);
    const scopes = await this.consentScopes(accountId, clientId, details.prompt.details, details.params.scope);
    const provider = this.host.current();
    const grant = (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ?? new provider.Grant({ accountId, clientId });
    if (scopes.openid.length) grant.addOIDCScope(scopes.openid.join(' '));
    if (scopes.claims.length) grant.addOIDCClaims(scopes.claims);
    const resource = resourceOf(clientId);
    if (scopes.resource.length) grant.addResourceScope(resource, scopes.resource.join(' '));
    // asked for, but not the account's to give: left out of the grant, and not asked again
    if (scopes.refused.length) grant.rejectResourceScope(resource, scopes.refused.join(' '));
    const grantId = await grant.save();
    await this.gateway.execute(new GiveApplicationConsentCommand(accountId, clientId, [...scopes.openid, ...scopes.resource], { ...requestContext(req, null), actor: accountId, actorKind: 'account' }));
    const redirectTo = await provider.interactionResult(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    return { redirect_to: redirectTo };
  }

  private async abort(req: Request, res: Response) {
    await this.interaction(req, res);
    const redirectTo = await this.host.current().interactionResult(req, res, { error: 'access_denied', error_description: 'The user declined the sign-in' }, { mergeWithLastSubmission: false });
    return { redirect_to: redirectTo };
  }
}
