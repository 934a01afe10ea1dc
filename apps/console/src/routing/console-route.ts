import type { ComponentType } from 'react';
import type { SystemPermission } from '@rollcall/contracts';
import type { TrpcQueryUtils } from '../trpc';

/**
 * A screen as its feature declares it in `routes.ts`: where it answers (paths.ts) and its code,
 * loaded when first shown (`lazyWithReload`). router.tsx puts every feature's list under its layout.
 */
export interface ConsoleRoute {
  path: string;
  screen: ComponentType;
  /**
   * The screen's first queries, asked before the first render when the console opens on it, with
   * the URL's search parameters (router.tsx preloadScreen): the screen then finds them on their way.
   */
  prefetch?: (utils: TrpcQueryUtils, search: URLSearchParams) => void;
}

/**
 * A screen of the admin shell and what the signed-in account must hold somewhere to see it
 * (docs/adr/0011), checked in one place for every screen (RequirePermission.tsx); the menu shows
 * its entry on the same condition (layouts/nav-items.ts).
 */
export interface AdminRoute extends ConsoleRoute {
  permission: SystemPermission;
}
