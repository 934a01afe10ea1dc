import { lazyWithReload } from '../../lib/lazy-with-reload';
import { enrolSecondFactorPath } from '../../paths';
import type { ConsoleRoute } from '../../routing/console-route';

/** the enrolment a password policy requires before anything else: outside the admin shell, like the required password change */
export const secondFactorsRoutes: ConsoleRoute[] = [{ path: enrolSecondFactorPath, screen: lazyWithReload(() => import('./EnrolSecondFactorPage')) }];
