export * from './second-factor-events';
export * from './second-factor';
