export * from './password-policy';
