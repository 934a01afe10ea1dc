export * from './audit-schemas';
export * from './history-schemas';
