export * from './domain-error';
export * from './decider';
