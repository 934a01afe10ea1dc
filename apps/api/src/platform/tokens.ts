/** Injection tokens for the ports and infrastructure the feature modules share. */
export const EVENT_STORE = Symbol('EVENT_STORE');
export const READ_DB = Symbol('READ_DB');
export const CLOCK = Symbol('CLOCK');
export { APP_CONFIG } from './config/app-config';
