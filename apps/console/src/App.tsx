import { useEffect, useState } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { getHttpStatus } from './api/api-error';
import { setAccessLostHandler } from './auth/auth-store';
import { SnackbarProvider } from './components/snackbar/SnackbarProvider';
import { indexRoute, signInRoute } from './features/auth/routes';
import { router } from './router';
import { theme } from './theme';
import { createTrpcClient, trpc } from './trpc';

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

/** A 401/403 anywhere sends the admin to the root page, which offers the sign-in form. */
function useAccessLostRedirect(queryClient: QueryClient) {
  useEffect(() => {
    setAccessLostHandler((status) => {
      const { pathname } = router.state.location;
      if (pathname === indexRoute || pathname === signInRoute) return;
      void router.navigate(indexRoute, { replace: true, state: { accessLost: status } }).then(() => {
        queryClient.removeQueries({ predicate: (query) => query.getObserversCount() === 0 });
      });
    });
    return () => setAccessLostHandler(null);
  }, [queryClient]);
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(createTrpcClient);
  useAccessLostRedirect(queryClient);

  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <ThemeProvider theme={theme}>
          <CssBaseline />
          <SnackbarProvider>
            <RouterProvider router={router} />
          </SnackbarProvider>
        </ThemeProvider>
      </QueryClientProvider>
    </trpc.Provider>
  );
}
