import { z } from 'zod';
import { answerText } from './text';

/**
 * The building blocks of the answer schemas: what the API sends, beside the inputs it takes, so one
 * zod schema gives the TypeScript type, the OpenAPI document and the contract suite's check of real
 * answers (docs/adr/0023-one-rest-description.md). Every string is bounded like an input's, so the
 * schema walk of contract-schemas.unit.spec.ts holds answers to the same rule; the bound is what the
 * data can reach, never a check a stored value could fail.
 */

/** an id we hand out: a UUID */
export const answerId = () => z.string().max(36, { abort: true }).check(z.uuid());

/** a moment or a day as text: an ISO-8601 date-time, `YYYY-MM-DD`, `YYYY-MM-DD HH:mm:ss` or `HH:mm:ss` */
export const answerTimestamp = () => answerText(64);

/** The many answers that only say what happened: `{message}`. */
export const ZMessageAnswer = z.object({ message: answerText() });
export type TMessageAnswer = z.infer<typeof ZMessageAnswer>;

/** The answer of a write that names what it wrote: `{id}`. */
export const ZIdAnswer = z.object({ id: answerId() });
export type TIdAnswer = z.infer<typeof ZIdAnswer>;
