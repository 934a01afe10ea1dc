import { lazyWithReload } from '../../lib/lazy-with-reload';
import { attendanceStatusesPath } from '../../paths';
import type { AdminRoute } from '../../routing/console-route';

/** the attendance statuses */
export const attendanceStatusesRoutes: AdminRoute[] = [
  { path: attendanceStatusesPath, permission: 'attendance:read', screen: lazyWithReload(() => import('./AttendanceStatusesPage')) },
];
