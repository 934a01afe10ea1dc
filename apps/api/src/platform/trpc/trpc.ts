import { initTRPC, TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server';
import type { RequestContext } from '../commands/request-context';
import type { Principal } from '../access/principal';
import type { SystemPermission } from '@rollcall/contracts';
import type { DomainError } from '@rollcall/domain';
import { restrictionRefusal, type AllowedRestrictions } from '../access/route-decorators';
import type { AccessChecks } from '../access/caller-access';
import type { ResourceRequirement } from '../access/resource-requirements';
import { mapError } from '../errors/api-error';
import { MAX_SUBSCRIPTIONS_PER_SOCKET, type LiveConnection } from './live-connection';

export interface TrpcContext {
  principal: Principal | null;
  /** why the request's credential was refused (an expired or out-of-place access token) */
  refusal: DomainError | null;
  context: RequestContext;
  /** who may do what (docs/adr/0011): the same check as REST's AuthGuard */
  access: AccessChecks;
  /** present on HTTP calls (sign-in/out set the session cookie), absent over WS */
  cookies?: { set(token: string, expiresAt: string): void; clear(): void };
  /** present on HTTP calls: the User-Agent and how the credential came, for the list of one's own sessions */
  client?: { userAgent: string | null; via: 'bearer' | 'cookie' | null; origin?: string | null };
  /** present on the console WebSocket: its session, checked again before each push (live-connection.ts) */
  live?: LiveConnection;
}

const CODE_BY_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
  503: 'SERVICE_UNAVAILABLE',
};

/**
 * tRPC errors carry the same `{code, message, fields}` as REST answers under `data.apiError`, mapped
 * by the same function, so the console handles one error shape.
 */
const SUBSCRIPTIONS_OVER_WS_ONLY = 'Subscriptions are served over the WebSocket (/ws) only';

const t = initTRPC.context<TrpcContext>().create({
  // subscriptions only over the WebSocket, whose upgrade checks the Origin and takes sessions only:
  // tRPC's second transport, server-sent events over HTTP, would skip both (docs/security.md, 1)
  sse: { enabled: false },
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    // a body or ?input= that is not JSON: tRPC reads it and answers 400 with the parser's SyntaxError as
    // the cause, the caller's mistake, not one of ours to map (and log) as a server error
    // (a TypeError there is tRPC failing to read the body it was sent, a form or a stream: the same mistake)
    const malformed = (cause instanceof SyntaxError || cause instanceof TypeError) && (error.code === 'BAD_REQUEST' || error.code === 'PARSE_ERROR');
    const mapped = cause && !malformed && !(cause instanceof TRPCError) ? mapError(cause) : null;
    // tRPC's own words for a subscription asked over HTTP name a flag the caller cannot set
    const message = error.code === 'METHOD_NOT_SUPPORTED' && shape.data.path && /sseSubscriptions/.test(error.message) ? SUBSCRIPTIONS_OVER_WS_ONLY : error.message;
    const apiError = !malformed
      ? (mapped?.body.error ?? { code: API_CODE_BY_TRPC_CODE[error.code] ?? 'server.internal', message })
      : cause instanceof SyntaxError
        ? { code: 'request.malformed_json', message: `The input is not valid JSON: ${cause.message}` }
        : { code: 'request.malformed_body', message: `The body could not be read: ${cause.message}` };
    return { message: apiError.message, code: shape.code, data: { code: shape.data.code, httpStatus: shape.data.httpStatus, path: shape.data.path, apiError } };
  },
});

const API_CODE_BY_TRPC_CODE: Partial<Record<TRPC_ERROR_CODE_KEY, string>> = {
  BAD_REQUEST: 'request.invalid',
  PARSE_ERROR: 'request.malformed_json',
  UNAUTHORIZED: 'auth.required',
  FORBIDDEN: 'auth.forbidden',
  NOT_FOUND: 'route.not_found',
  METHOD_NOT_SUPPORTED: 'request.invalid',
  PAYLOAD_TOO_LARGE: 'request.too_large',
  UNSUPPORTED_MEDIA_TYPE: 'request.unsupported_media_type',
  TOO_MANY_REQUESTS: 'rate.limited',
};

/**
 * A handler's own error (DomainError, a taken username, a version conflict) reaches tRPC as an
 * INTERNAL_SERVER_ERROR wrapping it; give it the status our REST layer would use instead.
 */
const mapErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.code === 'INTERNAL_SERVER_ERROR' && result.error.cause && !(result.error.cause instanceof TRPCError)) {
    throw asTrpcError(result.error.cause);
  }
  return result;
});

/** a handler's or a check's own error as the TRPCError with the status REST would answer */
function asTrpcError(cause: unknown): TRPCError {
  if (cause instanceof TRPCError) return cause;
  const { status, body } = mapError(cause);
  return new TRPCError({ code: CODE_BY_STATUS[status] ?? 'INTERNAL_SERVER_ERROR', message: body.error.message, cause });
}

export const QUERIES_OVER_HTTP_ONLY = 'Queries and mutations are served over HTTP (/trpc) only; the WebSocket (/ws) carries subscriptions';

/**
 * The console WebSocket carries subscriptions only (docs/security.md, "An open socket is no
 * exception"): a query or a mutation there would act on the principal the socket was opened with.
 */
const subscriptionsOnlyOverSocket = t.middleware(({ ctx, type, next }) => {
  if (ctx.live && type !== 'subscription') throw new TRPCError({ code: 'METHOD_NOT_SUPPORTED', message: QUERIES_OVER_HTTP_ONLY });
  return next();
});

export const router = t.router;
export const publicProcedure = t.procedure.use(subscriptionsOnlyOverSocket).use(mapErrors);
const authenticatedProcedure = publicProcedure.use(async ({ ctx, next }) => {
  if (ctx.refusal) throw ctx.refusal;
  if (!ctx.principal) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in first: this call needs a valid session' });
  // a subscription on a socket opened a while ago starts on the session as it is now
  const principal = ctx.live ? await ctx.live.current() : ctx.principal;
  return next({ ctx: { ...ctx, principal } });
});

/**
 * A signed-in session (no access tokens) open under the restrictions `allowed` names, by the same
 * rule as REST's guard (restrictionRefusal): a procedure says what its REST twin's @AllowedWhile…
 * decorators say (docs/adr/0025).
 */
export const sessionProcedureAllowedWhile = (allowed: AllowedRestrictions) =>
  authenticatedProcedure.use(({ ctx, next }) => {
    const principal = ctx.principal;
    if (principal.kind !== 'session') throw new TRPCError({ code: 'FORBIDDEN', message: 'This call needs a signed-in session: access tokens cannot make it' });
    const refusal = restrictionRefusal(principal, allowed);
    if (refusal) throw refusal;
    return next({ ctx: { ...ctx, principal } });
  });

/** A signed-in session free to act (no restriction pending); no access tokens. */
export const sessionProcedure = sessionProcedureAllowedWhile({});

/**
 * A session free to act (or an access token) holding `permission` where `requirements` say (ids read
 * from the input as `input:<key>`): the same rule as REST's @RequirePermission, by the same access checks (the auth feature's AccessPolicy).
 */
export const permittedProcedure = (permission: SystemPermission, ...requirements: ResourceRequirement[]) => permittedByInputProcedure(permission, () => requirements);

/** As permittedProcedure, where the input says which kind of resource it names (the history of an account or of a team). */
export const permittedByInputProcedure = (permission: SystemPermission, requirementsOf: (input: unknown) => ResourceRequirement[]) =>
  authenticatedProcedure.use(async ({ ctx, type, next, getRawInput }) => {
    const input = await getRawInput();
    const requirements = requirementsOf(input);
    const check = async () => {
      const refusal = restrictionRefusal(ctx.principal, {});
      if (refusal) throw refusal;
      await ctx.access.authorize(ctx.principal, permission, requirements, { input: requirements.length > 0 ? input : undefined });
    };
    await check();
    const live = ctx.live;
    if (live && type === 'subscription' && live.subscriptions >= MAX_SUBSCRIPTIONS_PER_SOCKET) {
      throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: `At most ${MAX_SUBSCRIPTIONS_PER_SOCKET} subscriptions run on one WebSocket` });
    }
    const result = await next();
    if (!result.ok || type !== 'subscription' || !live) return result;
    live.subscriptions += 1;
    // every message or batch is pushed only after the same check passes again, on the session as it is now
    const checked = checkedBeforeEach(
      result.data as AsyncIterable<unknown>,
      async () => {
        await live.current();
        await check();
      },
      () => (live.subscriptions -= 1),
    );
    return { ...result, data: checked };
  });

/**
 * The subscription's stream, each value let through only once `check` passes: a session that ended
 * ends it with UNAUTHORIZED (and LiveConnection closes the socket), a permission no longer held with
 * FORBIDDEN. `return` goes straight to the source, so stopping never waits for its next value.
 */
function checkedBeforeEach<T>(source: AsyncIterable<T>, check: () => Promise<void>, onEnd: () => void): AsyncIterable<T> {
  let ended = false;
  const end = () => {
    if (!ended) onEnd();
    ended = true;
  };
  return {
    [Symbol.asyncIterator]() {
      const iterator = source[Symbol.asyncIterator]();
      return {
        async next() {
          let item: IteratorResult<T>;
          try {
            item = await iterator.next();
          } catch (cause) {
            end();
            // stopped (unsubscribed, socket closed): nothing to report
            if (cause instanceof Error && cause.name === 'AbortError') throw cause;
            // a check inside the subscription (its filter) answers with the status REST would use
            throw asTrpcError(cause);
          }
          if (item.done) {
            end();
            return item;
          }
          try {
            await check();
          } catch (cause) {
            end();
            void iterator.return?.();
            throw asTrpcError(cause);
          }
          return item;
        },
        return: async (value?: unknown) => {
          end();
          return iterator.return ? iterator.return(value) : { done: true as const, value: value as T };
        },
      };
    },
  };
}
