export * from './organization';
export * from './organization-tree';
