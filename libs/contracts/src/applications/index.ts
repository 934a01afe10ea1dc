export * from './application-schemas';
export * from './sso-claims';
export * from './sso-claims-schemas';
