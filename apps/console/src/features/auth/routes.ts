import { lazyWithReload } from '../../lib/lazy-with-reload';
import { activatePath, changePasswordPath, indexPath, signInPath } from '../../paths';
import type { ConsoleRoute } from '../../routing/console-route';

/** '/' (signed in: on to the first screen the account may use), sign-in, the required password change and the activation link: outside the admin shell, open to anyone */
export const authRoutes: ConsoleRoute[] = [
  { path: indexPath, screen: lazyWithReload(() => import('./IndexPage'), { firstScreen: 'sign-in' }) },
  { path: signInPath, screen: lazyWithReload(() => import('./SignInPage'), { firstScreen: 'sign-in' }) },
  { path: changePasswordPath, screen: lazyWithReload(() => import('./ChangePasswordPage')) },
  { path: activatePath, screen: lazyWithReload(() => import('./ActivatePage')) },
];
