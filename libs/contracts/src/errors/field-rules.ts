import { z } from 'zod';
import { answerText } from '../common/text';

export * from './field-rule-codes';

export const ZFieldRule = z.object({
  /** the input field, as in `fields` ('restrictions.0' for a list's item, '_' for the body itself) */
  field: answerText(1000),
  /** a FIELD_RULE_CODES member, or the error's own code (ERROR_CODES) */
  code: answerText(100),
  /** `label`: the field's English name as the message says it; `max`, `min`, `values`, `keys`: the rule's own */
  params: z.record(answerText(100), z.union([answerText(10_000), z.number()])).optional(),
  message: answerText(1024 * 1024),
});
export type TFieldRule = z.infer<typeof ZFieldRule>;

