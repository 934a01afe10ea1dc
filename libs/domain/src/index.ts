export * from './shared';
export * from './account';
export * from './session';
export * from './password-policy';
export * from './access-token';
export * from './organization';
export * from './team';
