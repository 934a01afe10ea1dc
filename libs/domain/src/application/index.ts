export * from './application';
export * from './application-access';
export * from './application-client';
export * from './account-application-access';
