import type { DomainEvent } from '../shared';

/**
 * The second factors of one account, in their own stream (`second-factors-{accountId}`) beside the
 * account's: a sign-in reads the account for the password and this stream for what else it must ask.
 *
 * Each kind of factor has its own events and its own slot in the state (`totp` today); a later kind
 * (a passkey: `PasskeyRegistered`, `PasskeyUsed`, `PasskeyRemoved`, several per account) is one more
 * slot, and `enrolledFactors` counts it. Recovery codes are no factor of their own: they stand in for
 * a lost one and are honoured only while one is enrolled (docs/adr/0025-second-factors.md).
 *
 * Secrets: the TOTP secret is stored only sealed with the server's secrets key (AES-256-GCM, bound to
 * the account and enrolment), the recovery codes only as SHA-256 hashes; both are declared `secret`
 * in libs/contracts' event-redaction.ts, so no reader of the history ever sees them.
 */

/** the TOTP secret as it is stored: the API's sealed form, opaque to the domain */
export type SealedTotpSecret = Record<string, string>;

export type TotpEnrolmentStarted = DomainEvent<'TotpEnrolmentStarted', { accountId: string; enrolmentId: string; sealedSecret: SealedTotpSecret; startedAt: string }>;
/** the first valid code confirmed the enrolment; its time step counts as used */
export type TotpEnrolled = DomainEvent<'TotpEnrolled', { accountId: string; enrolmentId: string; step: number; enrolledAt: string }>;
export type TotpUsed = DomainEvent<'TotpUsed', { accountId: string; enrolmentId: string; step: number; at: string }>;
export type TotpRemoved = DomainEvent<'TotpRemoved', { accountId: string; enrolmentId: string; removedAt: string }>;
/** a new set replaces any earlier one whole; `codeHashes` are SHA-256 of each code (never read out) */
export type RecoveryCodesGenerated = DomainEvent<'RecoveryCodesGenerated', { accountId: string; codeHashes: string[]; count: number; generatedAt: string }>;
export type RecoveryCodeUsed = DomainEvent<'RecoveryCodeUsed', { accountId: string; index: number; remaining: number; at: string }>;
/** an administrator removed every second factor and recovery code of the account */
export type SecondFactorsReset = DomainEvent<'SecondFactorsReset', { accountId: string; reason: string; resetBy: string; at: string }>;

/**
 * A passkey's credential as the WebAuthn registration gave it: the credential id and COSE public key
 * (base64url), the signature counter, and what the authenticator said of itself. Not secret (a
 * public key), but kept out of readable histories (event-redaction.ts): nobody needs to read them.
 */
export interface PasskeyCredential {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  /** 'singleDevice' or 'multiDevice' (synced), as WebAuthn's backup flags say */
  deviceType: string;
  backedUp: boolean;
}
export type PasskeyRegistered = DomainEvent<'PasskeyRegistered', { accountId: string; passkeyId: string; name: string; credential: PasskeyCredential; registeredAt: string }>;
export type PasskeyRenamed = DomainEvent<'PasskeyRenamed', { accountId: string; passkeyId: string; name: string; at: string }>;
/** a sign-in (or a confirmation) with the passkey; `counter` is the authenticator's signature counter then */
export type PasskeyUsed = DomainEvent<'PasskeyUsed', { accountId: string; passkeyId: string; counter: number; at: string }>;
export type PasskeyRemoved = DomainEvent<'PasskeyRemoved', { accountId: string; passkeyId: string; name: string; removedAt: string }>;

export type SecondFactorEvent =
  | TotpEnrolmentStarted
  | TotpEnrolled
  | TotpUsed
  | TotpRemoved
  | RecoveryCodesGenerated
  | RecoveryCodeUsed
  | SecondFactorsReset
  | PasskeyRegistered
  | PasskeyRenamed
  | PasskeyUsed
  | PasskeyRemoved;

export const SECOND_FACTOR_EVENT_TYPES: SecondFactorEvent['type'][] = [
  'TotpEnrolmentStarted',
  'TotpEnrolled',
  'TotpUsed',
  'TotpRemoved',
  'RecoveryCodesGenerated',
  'RecoveryCodeUsed',
  'SecondFactorsReset',
  'PasskeyRegistered',
  'PasskeyRenamed',
  'PasskeyUsed',
  'PasskeyRemoved',
];
