export const presenceRoute = '/presence';
