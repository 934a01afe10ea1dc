export * from './organization-schemas';
