export const accountsRoute = '/accounts';
/** The id is optional (spec): without it the profile screen has no account to show yet. */
export const accountProfileRoute = '/accounts/profile/:id?';

export const toAccounts = (): string => accountsRoute;
export const toAccount = (id: string): string => `/accounts/profile/${encodeURIComponent(id)}`;
