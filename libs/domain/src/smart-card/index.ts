export * from './card-uid';
export * from './smart-card';
export * from './unknown-card';
