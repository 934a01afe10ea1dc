import { useLayoutEffect } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCQueryUtils } from '@trpc/react-query';
import { RouterProvider } from 'react-router-dom';
import { getHttpStatus } from './api/api-error';
import { setAccessLostHandler } from './api/auth-store';
import { SnackbarProvider } from './components/snackbar/SnackbarProvider';
import { indexPath, signInPath } from './paths';
import { router } from './router';
import { theme } from './theme';
import { lazyWithReload } from './lib/lazy-with-reload';
import { SecuritySlot } from './features/me/security-slot';
import { createTrpcClient, QUIET_ACCESS_CHECK, trpc } from './trpc';
import type { ConsoleRoute } from './routing/console-route';

/** the own second factors, on the own page's Security tab (features/me/security-slot.ts); its code loads when shown */
const SecondFactorsPanel = lazyWithReload(() => import('./features/second-factors').then((module) => ({ default: module.SecondFactorsPanel })));

function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Answers with a status below 500 will not change on a retry; network trouble might.
        retry: (failureCount, error) => {
          const status = getHttpStatus(error);
          return (status === undefined || status >= 500) && failureCount < 2;
        },
        refetchOnWindowFocus: false,
      },
    },
  });
}

/**
 * A 401/403 anywhere sends the admin to the root page, which offers the sign-in form. Registered in
 * a layout effect, which runs before the effects of the screens below (RequirePermission reports a
 * missing permission from an effect as soon as a screen mounts).
 */
function useAccessLostRedirect(queryClient: QueryClient) {
  useLayoutEffect(() => {
    setAccessLostHandler((status) => {
      const { pathname } = router.state.location;
      if (pathname === indexPath || pathname === signInPath) return;
      void router.navigate(indexPath, { replace: true, state: { accessLost: status } }).then(() => {
        queryClient.removeQueries({ predicate: (query) => query.getObserversCount() === 0 });
      });
    });
    return () => setAccessLostHandler(null);
  }, [queryClient]);
}

export interface ConsoleClients {
  queryClient: QueryClient;
  trpcClient: ReturnType<typeof createTrpcClient>;
}

/**
 * The console's query cache and tRPC client, made before the first render: on an admin screen,
 * `auth.me` (which the shell needs before anything shows) is asked at once, while the screen's code
 * is still loading (router.tsx preloadScreen).
 */
export function createConsoleClients({ askWhoAmI, prefetch }: { askWhoAmI: boolean; prefetch?: ConsoleRoute['prefetch'] }): ConsoleClients {
  const queryClient = createQueryClient();
  const trpcClient = createTrpcClient();
  const utils = createTRPCQueryUtils({ queryClient, client: trpcClient });
  if (askWhoAmI) void utils.auth.me.prefetch(undefined, { trpc: { context: { [QUIET_ACCESS_CHECK]: true } } });
  // in the same turn: the batch link sends them with auth.me in one request
  prefetch?.(utils, new URLSearchParams(window.location.search));
  return { queryClient, trpcClient };
}

export function App({ clients }: { clients: ConsoleClients }) {
  const { queryClient, trpcClient } = clients;
  useAccessLostRedirect(queryClient);

  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <ThemeProvider theme={theme}>
          <CssBaseline />
          <SnackbarProvider>
            <SecuritySlot.Provider value={<SecondFactorsPanel />}>
              <RouterProvider router={router} />
            </SecuritySlot.Provider>
          </SnackbarProvider>
        </ThemeProvider>
      </QueryClientProvider>
    </trpc.Provider>
  );
}
