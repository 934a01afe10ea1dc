import { type createTRPCQueryUtils, createTRPCReact } from '@trpc/react-query';
import { createWSClient, httpBatchLink, splitLink, wsLink, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import type { AppRouter } from '@rollcall/api-router';
import { authStore, reportAccessLost } from './api/auth-store';
import { getApiError, getHttpStatus } from './api/api-error';
import { browserTimeZone } from './lib/zone-label';

export const trpc = createTRPCReact<AppRouter>();

/** the query cache's tRPC helpers outside React (prefetches before the first render) */
export type TrpcQueryUtils = ReturnType<typeof createTRPCQueryUtils<AppRouter>>;

/** Calls whose 401/403 is an answer for the screen, not a loss of access. */
const ACCESS_CHECK_EXEMPT = new Set(['auth.signIn', 'auth.signOut', 'auth.completeSignIn']);

/**
 * 403s that refuse one call on the caller's own account, the session's access intact (review R24c
 * G2): the screen shows them, the browser stays where it is.
 */
const OWN_ACCOUNT_REFUSALS = new Set(['account.own_password_via_own_page', 'account.own_credentials_need_recent_sign_in', 'second_factor.reset_own_account']);

/**
 * Headers of every HTTP call. The spec's time-zone header carries a zone name; we send the
 * browser's real zone under our name (X-Time-Zone) and, for REST clients written against the spec,
 * under its original name too.
 */
export function requestHeaders(): Record<string, string> {
  const zone = browserTimeZone();
  const headers: Record<string, string> = { 'X-Time-Zone': zone, 'X-Timezone-Offset': zone };
  const token = authStore.getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

function wsUrl(): string {
  const protocol = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${protocol}://${window.location.host}/ws`;
}

/**
 * A call made with this context set leaves a 401 or 403 to whoever reads its answer: the `auth.me`
 * asked before the first render, when the app cannot yet move to the root page (App.tsx); the shell
 * asks again as it mounts, and that call reports the loss.
 */
export const QUIET_ACCESS_CHECK = 'quietAccessCheck';

/** the close code of a console socket whose session ended (apps/api/src/trpc/live-connection.ts) */
export const SESSION_ENDED_CLOSE = 4401;

/** A 401 or 403 on any call (but sign-in/out) sends the browser to the root page. */
const accessLink: TRPCLink<AppRouter> = () => {
  return ({ next, op }) =>
    observable((observer) => {
      const subscription = next(op).subscribe({
        next: (value) => observer.next(value),
        error: (error) => {
          const status = getHttpStatus(error);
          if ((status === 401 || status === 403) && !ACCESS_CHECK_EXEMPT.has(op.path) && !op.context[QUIET_ACCESS_CHECK] && !OWN_ACCOUNT_REFUSALS.has(getApiError(error)?.code ?? '')) reportAccessLost(status);
          observer.error(error);
        },
        complete: () => observer.complete(),
      });
      return () => subscription.unsubscribe();
    });
};

export function createTrpcClient() {
  // Lazy: the socket opens with the first subscription and closes when the last one ends, so the
  // sign-in page never opens it. The cookie travels with the upgrade; the token goes along too.
  // The socket carries subscriptions only (queries and mutations go over HTTP, below); the server
  // closes it with SESSION_ENDED_CLOSE once the session has ended (signed out elsewhere, expired,
  // account disabled or deleted): that is a loss of access like a 401, not a reason to reconnect.
  const wsClient = createWSClient({
    url: wsUrl,
    lazy: { enabled: true, closeMs: 10_000 },
    onClose: (cause) => {
      if (cause?.code === SESSION_ENDED_CLOSE) reportAccessLost(401);
    },
    connectionParams: () => {
      const token = authStore.getToken();
      return token ? { token } : null;
    },
  });
  return trpc.createClient({
    links: [
      accessLink,
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: wsLink({ client: wsClient }),
        false: httpBatchLink({
          url: '/trpc',
          // the server answers a batch of more than 50 calls 400 (TRPC_MAX_BATCH_SIZE); a screen asks far fewer
          maxItems: 25,
          headers: requestHeaders,
          fetch: (url, options) => fetch(url, { ...options, credentials: 'include' }),
        }),
      }),
    ],
  });
}
