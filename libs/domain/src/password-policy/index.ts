export * from './password-policy';
export * from './password-rules';
