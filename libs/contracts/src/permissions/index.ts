export * from './system-permissions';
