export * from './audit-schemas';
