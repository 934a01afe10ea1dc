export * from './error-codes';
export * from './field-rules';
