export * from './errors';
export * from './accounts';
export * from './auth';
export * from './live';
export * from './events';
export * from './policies';
export * from './permissions';
export * from './tokens';
