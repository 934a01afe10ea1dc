export * from './account-status';
export * from './account-schemas';
export * from './activation-schemas';
export * from './account-import-schemas';
