export * from './reader-protocol-schemas';
export * from './reader-admin-schemas';
