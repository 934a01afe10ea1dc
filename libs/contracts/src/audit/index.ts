export * from './audit-schemas';
export * from './history-schemas';
export * from './projection-schemas';
