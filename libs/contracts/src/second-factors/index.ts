export * from './second-factor-schemas';
