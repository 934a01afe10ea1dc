import { DomainError } from '../shared';

/**
 * A card's UID as readers report it: bytes in hexadecimal. ISO 14443 cards have 4, 7 or 10 bytes,
 * ISO 15693 and FeliCa 8, EM4100 tags 5, UHF EPCs 12; 4 to 16 bytes covers them all and refuses
 * typing noise. Separators (':', '-', spaces) are dropped and letters upper-cased, so one card has
 * one spelling everywhere: in its stream's name, in events, in lists. Readers that report a decimal
 * number (some keyboard-wedge models) are converted to hex by the scanner agent, which knows its
 * device; the server cannot tell '12345678' in decimal from the same digits in hex.
 */
export const CARD_UID_BYTES = { min: 4, max: 16 } as const;

const SEPARATORS = /[\s:-]/g;
const HEX = /^[0-9A-F]+$/;

const invalid = (message: string) => new DomainError('smart_card.uid_invalid', message, 'card_uid', { card_uid: [message] });

export function normaliseCardUid(raw: string): string {
  const uid = raw.replace(SEPARATORS, '').toUpperCase();
  if (!uid) throw invalid('Card UID is required');
  if (!HEX.test(uid)) throw invalid('Card UID must be hexadecimal (0-9, A-F)');
  if (uid.length % 2 !== 0) throw invalid('Card UID must be whole bytes (an even number of hex digits)');
  const bytes = uid.length / 2;
  if (bytes < CARD_UID_BYTES.min || bytes > CARD_UID_BYTES.max) {
    throw invalid(`Card UID must be ${CARD_UID_BYTES.min} to ${CARD_UID_BYTES.max} bytes (${CARD_UID_BYTES.min * 2} to ${CARD_UID_BYTES.max * 2} hex digits)`);
  }
  return uid;
}
