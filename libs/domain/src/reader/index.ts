export * from './reader';
export * from './reader-health';
export * from './enrollment-scan';
