export * from './access-token-schemas';
