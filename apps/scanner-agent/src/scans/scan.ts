import { z } from 'zod';

/**
 * A card UID as readers report it: ISO/IEC 14443 cards have 4, 7 or 10 byte UIDs, and some readers
 * report other whole byte counts in between, so any 4 to 10 bytes of hex are accepted. Upper case is
 * the one stored form so that "04a1b2c3" and "04A1B2C3" can never become two different cards.
 *
 * This lives in the agent for now; it moves to libs/contracts with the reader messages once the API
 * accepts scans, so both sides validate the same way.
 */
export const cardUidSchema = z
  .string()
  // eslint-disable-next-line security/detect-unsafe-regex -- bounded repetition of a fixed-width group: linear, no backtracking blow-up
  .regex(/^(?:[0-9a-fA-F]{2}){4,10}$/, { error: 'expected 4 to 10 bytes of hex (8 to 20 hex digits), e.g. 04A1B2C3' })
  .transform((uid) => uid.toUpperCase());

export const scanSchema = z.object({
  cardUid: cardUidSchema,
  /** when the reader (or, for readers without a clock, the agent) saw the card; the server keeps it next to its own time */
  deviceTime: z.date({ error: 'deviceTime must be a valid date' }),
});

export type Scan = z.output<typeof scanSchema>;
