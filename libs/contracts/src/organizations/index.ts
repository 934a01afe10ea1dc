export * from './organization-schemas';
export * from './role-schemas';
