/** The one place the application reads time; deciders get it through commands. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };
