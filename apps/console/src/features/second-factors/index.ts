/** What other parts of the console place: the own second factors' panel (on the account's own page). */
export { SecondFactorsPanel } from './SecondFactorsPanel';
