export const organizationsRoute = '/organizations';
export const organizationDetailsRoute = '/organizations/details/:id?';

export const toOrganizations = (): string => organizationsRoute;
export const toOrganization = (id: string): string => `/organizations/details/${encodeURIComponent(id)}`;
