import { useEffect } from 'react';
import { Outlet } from 'react-router-dom';
import type { SystemPermission } from '@rollcall/contracts';
import { reportAccessLost } from '../api/auth-store';
import { grantsFrom } from '../auth/use-grants';
import { trpc } from '../trpc';

/**
 * The admin shell's one permission check: a screen shows only to an account that holds its route's
 * permission somewhere (docs/adr/0011); any other leaves for the root page exactly as after a 403
 * from the server, which decides anyway. While `auth.me` is on its way the screen renders, so its
 * own queries need not wait for it (the first screen's time, router.tsx preloadScreen).
 */
export function RequirePermission({ permission }: { permission: SystemPermission }) {
  const me = trpc.auth.me.useQuery(undefined, { staleTime: 60_000 });
  const denied = me.data !== undefined && !grantsFrom(me.data.grants).may(permission);
  useEffect(() => {
    if (denied) reportAccessLost(403);
  }, [denied]);
  return denied ? null : <Outlet />;
}
