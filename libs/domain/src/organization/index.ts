export * from './organization';
export * from './organization-tree';
export * from './organization-access';
