/** The root path: target after logout and after a loss of access (401/403). */
export const indexRoute = '/';
export const signInRoute = '/login';

export const toIndex = (): string => indexRoute;
export const toSignIn = (): string => signInRoute;
export const changePasswordRoute = '/change-password';
export const toChangePassword = (): string => changePasswordRoute;
/** public: the link of an activation e-mail (the API builds it as ROLLCALL_PUBLIC_URL + /activate/<token>) */
export const activateRoute = '/activate/:token';
export const toActivate = (token: string): string => `/activate/${encodeURIComponent(token)}`;
