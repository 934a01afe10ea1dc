export * from './team-schemas';
