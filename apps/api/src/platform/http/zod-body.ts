import type { z } from 'zod';

/** Parses with a zod schema; a ZodError becomes a 400 with fields through the exception filter. */
export const parseWith = <Schema extends z.ZodType>(schema: Schema, value: unknown): z.output<Schema> => schema.parse(value ?? {});
