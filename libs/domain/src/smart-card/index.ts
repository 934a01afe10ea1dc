export * from './card-uid';
export * from './smart-card';
