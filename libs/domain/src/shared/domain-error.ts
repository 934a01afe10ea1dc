/**
 * A rule of the domain was broken. `code` is a stable dotted string (see libs/contracts error codes);
 * `field` names the input field the rule is about, so APIs can show the message under that field.
 * `fields` carries every broken field rule at once when a command checks several (a form then shows
 * all its errors after one submit instead of one per round trip).
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly fields?: Record<string, string[]>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** A rule about one input field: the message under that field, and the field's only error. */
export const fieldError = (code: string, field: string, message: string): DomainError => new DomainError(code, message, field, { [field]: [message] });
