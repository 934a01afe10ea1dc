import type { z } from 'zod';

/**
 * A body parsed by its schema (a ZodError becomes a 400 with fields through the exception filter). No body at all reads as `{}` (a route whose fields are all optional);
 * a body that is JSON `null` is a value like any other, refused by an object schema (review R24b).
 */
export const parseWith = <Schema extends z.ZodType>(schema: Schema, value: unknown): z.output<Schema> => schema.parse(value === undefined ? {} : value);
