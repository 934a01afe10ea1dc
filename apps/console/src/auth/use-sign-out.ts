import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { authStore } from '../api/auth-store';
import { trpc } from '../trpc';
import { toIndex } from '../paths';
import { unknownCardNotices } from '../live/unknown-card-notices';

/**
 * Log out: the server revokes the session and clears the user_session cookie; we forget the token
 * and return to the root path whatever the server answered.
 */
export function useSignOut() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signOut = trpc.auth.signOut.useMutation();
  const { mutateAsync } = signOut;

  const run = useCallback(async () => {
    try {
      await mutateAsync();
    } catch {
      // signing out locally still has to happen
    }
    authStore.clear();
    unknownCardNotices.clear();
    await navigate(toIndex(), { replace: true });
    // Drop the previous session's data; queries still observed (the root page's) refresh themselves.
    queryClient.removeQueries({ predicate: (query) => query.getObserversCount() === 0 });
  }, [mutateAsync, navigate, queryClient]);

  return { signOut: run, isPending: signOut.isPending };
}
