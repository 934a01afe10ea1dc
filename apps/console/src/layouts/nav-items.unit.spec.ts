import { describe, expect, it } from 'vitest';
import type { AdminRoute, ConsoleRoute } from '../routing/console-route';
import { homeFor, NAV_ITEMS } from './nav-items';

// every feature's route list, as router.tsx assembles them
const routeModules = import.meta.glob<Record<string, ConsoleRoute[]>>('../features/*/routes.ts', { eager: true });
const adminRoutes = Object.values(routeModules)
  .flatMap((module) => Object.values(module).flat())
  .filter((route): route is AdminRoute => 'permission' in route);

describe('the menu', () => {
  it('offers each screen to exactly who its route lets in', () => {
    for (const item of NAV_ITEMS) {
      const route = adminRoutes.find((candidate) => candidate.path === item.to);
      expect(route, `a route for ${item.to}`).toBeDefined();
      expect(route?.permission, item.to).toBe(item.permission);
    }
  });

  it('keeps the spec\'s paths', () => {
    expect(NAV_ITEMS.map((item) => item.to)).toEqual([
      '/accounts',
      '/organizations',
      '/teams',
      '/applications',
      '/password-policies',
      '/presence',
      '/arrivals-departures',
      '/statistics',
      '/attendance-statuses',
      '/readers',
      '/unknown-cards',
      '/access-tokens',
      '/audit/events',
      '/audit/projections',
    ]);
    expect(adminRoutes.map((route) => route.path)).toEqual(expect.arrayContaining(['/accounts/profile/:id?', '/organizations/details/:id?', '/applications/details/:id?']));
  });

  it('starts an account on the first screen it may use', () => {
    expect(homeFor({ everywhere: [], anywhere: ['teams:read', 'attendance:read'], within: {} })).toBe('/teams');
    expect(homeFor({ everywhere: [], anywhere: [], within: {} })).toBeNull();
  });
});
