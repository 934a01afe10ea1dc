export * from './live-messages';
