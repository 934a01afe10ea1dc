import { z } from 'zod';
import { ZAccountId, ZBooleanish } from '../accounts/account-schemas';
import { ZCardUid } from '../readers/reader-protocol-schemas';
import { answerId, answerTimestamp } from '../common/answers';
import { answerText, boundedText, TEXT_MAX, uuidOf } from '../common/text';
import { pageShape } from './attendance-common';

/**
 * The account's 'Smart cards' tab (console-accounts.md tab 3): 10 per page, newest first; 'Remove
 * card' (`DELETE account/smartcard/{card_id}`); and assigning an unknown card from the live list.
 * Adding a card is register mode (../readers: `POST scanner/mode/register/{account}`).
 */
export const SMART_CARD_PAGE_SIZE = 10;
export const SMART_CARD_SORT_FIELDS = ['created_at', 'card_uid'] as const;

export const ZSmartCardId = uuidOf('card id', 'card id must be a UUID', 'card id is required');

/** `GET account/{id}/smartcards` */
export const ZListSmartCardsInput = z.object({
  ...pageShape(SMART_CARD_PAGE_SIZE),
  sortBy: z.enum(SMART_CARD_SORT_FIELDS, { error: `sortBy must be one of ${SMART_CARD_SORT_FIELDS.join(', ')}` }).default('created_at'),
  desc: ZBooleanish.default(true),
});
export type TListSmartCardsQuery = z.output<typeof ZListSmartCardsInput>;

/** an unknown card scanned at a reader, given to an account by an administrator */
export const ZAssignCardInput = z.object({ card_uid: ZCardUid, account_id: ZAccountId });
export type TAssignCardInput = z.input<typeof ZAssignCardInput>;

/** a row of the Smart cards tab: Card ID, Card UID, Added at */
export const ZSmartCard = z.object({ id: answerId(), card_uid: answerText(64), created_at: answerTimestamp() });
export type TSmartCard = z.infer<typeof ZSmartCard>;

/** an item of the live 'unknown card' list */
export const ZUnknownCard = z.object({
  card_uid: answerText(64),
  reader_id: answerId(),
  reader_name: answerText(TEXT_MAX),
  door: answerText(TEXT_MAX),
  scanned_at: answerTimestamp(),
  /** how many times it was scanned since it was last listed */
  scans: z.number().int().optional(),
});
export type TUnknownCard = z.infer<typeof ZUnknownCard>;

/** an administrator takes an unknown card off the list (a visitor's card, a card of another system), saying why */
export const ZDismissUnknownCardInput = z.object({ card_uid: ZCardUid, reason: boundedText('The reason', 500, { trim: true, multiline: true }).default('') });
export type TDismissUnknownCardInput = z.input<typeof ZDismissUnknownCardInput>;

/** `POST scanner/mode/register/{account_id}`: the enrollment readers armed, until `expires_at` */
export const ZRegisterModeArmed = z.object({ readers: z.array(answerId()), expires_at: answerTimestamp() });
/** `POST scanner/cancel`: the readers whose register mode ended (empty when nothing was armed) */
export const ZRegisterModeCancelled = z.object({ readers: z.array(answerId()) });
