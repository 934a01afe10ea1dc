export * from './smart-card-schemas';
export * from './attendance-status-schemas';
export * from './tracking-status-schemas';
export * from './attendance-schemas';
export * from './attendance-live-messages';
export * from './attendance-report-schemas';
