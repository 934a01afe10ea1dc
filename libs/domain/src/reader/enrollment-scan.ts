import { recordScan, type ReaderScan } from '../attendance/recorded-scan';
import type { ScanLedgerEvent } from '../attendance/scan-ledger';
import { DomainError } from '../shared';
import { smartCardDecider, type SmartCardEvent, type SmartCardState } from '../smart-card/smart-card';
import { isArmed, type ReaderEvent, type ReaderState } from './reader';

export type EnrollmentOutcome = 'card_registered' | 'card_already_registered' | 'card_taken' | 'not_armed' | 'unknown_card';

/** Events for three streams, appended together: the reader's, the card's and the reader's scan ledger. */
export interface EnrollmentDecision {
  outcome: EnrollmentOutcome;
  reader: ReaderEvent[];
  card: SmartCardEvent[];
  ledger: ScanLedgerEvent[];
}

export interface EnrollmentScan {
  reader: ReaderState;
  /** the state of `smart-card-{scan.cardUid}` */
  card: SmartCardState;
  scan: ReaderScan;
  /** the id a new registration gets */
  cardId: string;
  clockSkewLimitSeconds: number;
}

/**
 * A card presented at an enrollment reader. Armed: the card becomes the armed account's and register
 * mode ends (the console's dialog closes by itself); a card another account holds is refused and the
 * reader stays armed for the right card. Not armed: nothing is registered; an unknown card becomes
 * an 'unknown card' item an administrator can assign, a known one is kept in the ledger.
 * Whether the arming is still on is judged by the server's clock when the scan arrived, the clock
 * that set its expiry.
 */
export function decideEnrollmentScan({ reader, card, scan, cardId, clockSkewLimitSeconds }: EnrollmentScan): EnrollmentDecision {
  if (reader.status !== 'active' || reader.role !== 'enrollment') throw new DomainError('reader.not_enrollment', 'Only an enrollment reader registers cards');
  const recorded = recordScan(scan, clockSkewLimitSeconds);
  const owner = card.status === 'registered' ? card.accountId : null;
  const ignored = (reason: 'not_armed' | 'card_taken' | 'card_already_registered', armedForAccountId: string | null): ScanLedgerEvent => ({
    type: 'EnrollmentScanIgnored',
    data: { readerId: scan.readerId, scan: recorded, reason, armedForAccountId, ownerAccountId: owner },
  });

  if (!isArmed(reader, scan.receivedAt)) {
    if (owner === null) return { outcome: 'unknown_card', reader: [], card: [], ledger: [{ type: 'UnknownCardScanned', data: { readerId: scan.readerId, scan: recorded } }] };
    return { outcome: 'not_armed', reader: [], card: [], ledger: [ignored('not_armed', null)] };
  }

  const { accountId, startedBy } = reader.registerMode;
  const end = (reason: 'card_registered' | 'card_already_registered'): ReaderEvent => ({
    type: 'RegisterModeEnded',
    data: { readerId: reader.readerId, accountId, reason, cardUid: recorded.cardUid, endedAt: scan.receivedAt },
  });
  if (owner === accountId) return { outcome: 'card_already_registered', reader: [end('card_already_registered')], card: [], ledger: [ignored('card_already_registered', accountId)] };
  if (owner !== null) return { outcome: 'card_taken', reader: [], card: [], ledger: [ignored('card_taken', accountId)] };

  const registered = smartCardDecider.decide(
    { type: 'RegisterSmartCard', data: { cardId, cardUid: scan.cardUid, account: { accountId, exists: true }, via: 'enrollment', registeredBy: startedBy, scan: recorded, at: scan.receivedAt } },
    card,
  );
  return { outcome: 'card_registered', reader: [end('card_registered')], card: registered, ledger: [] };
}
