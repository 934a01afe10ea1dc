import type { ComponentType } from 'react';
import type { SystemPermission } from '@rollcall/contracts';

/**
 * A screen as its feature declares it in `routes.ts`: where it answers (paths.ts) and its code,
 * loaded when first shown (`lazyWithReload`). router.tsx puts every feature's list under its layout.
 */
export interface ConsoleRoute {
  path: string;
  screen: ComponentType;
}

/**
 * A screen of the admin shell and what the signed-in account must hold somewhere to see it
 * (docs/adr/0011), checked in one place for every screen (RequirePermission.tsx); the menu shows
 * its entry on the same condition (layouts/nav-items.ts).
 */
export interface AdminRoute extends ConsoleRoute {
  permission: SystemPermission;
}
