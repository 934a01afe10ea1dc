export * from './account-status';
export * from './account-schemas';
