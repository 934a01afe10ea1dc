export * from './me-schemas';
