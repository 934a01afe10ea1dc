export * from './application-schemas';
export * from './sso-claims';
