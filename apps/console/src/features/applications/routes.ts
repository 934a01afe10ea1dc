export const applicationsRoute = '/applications';
export const applicationDetailsRoute = '/applications/details/:id?';

export const toApplications = (): string => applicationsRoute;
export const toApplication = (id: string): string => `/applications/details/${encodeURIComponent(id)}`;
