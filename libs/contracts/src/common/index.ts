export * from './text';
export * from './dates';
export * from './schema-audit';
export * from './answers';
