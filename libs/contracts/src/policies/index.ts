export * from './policy-schemas';
