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
    /**
     * The rule each message breaks, where a field-rule code of libs/contracts (FIELD_RULE_CODES) fits,
     * with the numbers a translation needs ('too_short' with `min`): the APIs carry them into
     * `error.rules`, so a console can say the policy's minimum in its own language.
     */
    readonly rules?: readonly DomainFieldRule[],
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/**
 * The rule one message of a field breaks: `code` a FIELD_RULE_CODES member of libs/contracts (the
 * domain imports nothing, so a plain string; thrown-error-codes tests check them), `params` its
 * numbers and `label` (the field's English name as the message says it).
 */
export interface DomainFieldRule {
  field: string;
  message: string;
  code: string;
  params?: Record<string, string | number>;
}

/** A rule about one input field: the message under that field, and the field's only error. */
export const fieldError = (code: string, field: string, message: string, rule?: { code: string; params?: Record<string, string | number> }): DomainError =>
  new DomainError(code, message, field, { [field]: [message] }, rule ? [{ field, message, ...rule }] : undefined);

/**
 * The same error under another input field (a policy's rule about `password` shown under a form's
 * `new_password`), its field rules moved along so their numbers are not lost.
 */
export const underField = (error: DomainError, field: string): DomainError =>
  new DomainError(error.code, error.message, field, undefined, error.rules?.map((rule) => (rule.field === error.field ? { ...rule, field } : rule)));
