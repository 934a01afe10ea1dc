/**
 * A rule of the domain was broken. `code` is a stable dotted string (see libs/contracts error codes);
 * `field` names the input field the rule is about, so APIs can show the message under that field.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
