import { EVENT_READ_DECLARATIONS, readableEventData, readableEventMetadata, REDACTED, undeclaredEventFields } from '@rollcall/contracts';
import * as domain from '@rollcall/domain';
import { describe, expect, it } from 'vitest';
import type { OidcActivityType } from '../oidc/oidc-audit';
import { readableEvent } from './readable-events';

/** the provider's activity records are appended by the API itself, not by a decider (oidc/oidc-audit.ts) */
const OIDC_ACTIVITY_TYPES = Object.keys({ OidcTokenIssued: true, OidcTokenRefused: true, OidcAuthorizationRefused: true, OidcSessionEnded: true } satisfies Record<OidcActivityType, true>);

/** every event type the API appends: each aggregate's `*_EVENT_TYPES` list in libs/domain, and the OIDC records */
function appendedEventTypes(): string[] {
  const lists = Object.entries(domain).filter(([name, value]) => name.endsWith('_EVENT_TYPES') && Array.isArray(value));
  expect(lists.length, 'the domain exports its event type lists').toBeGreaterThan(10);
  return [...new Set([...lists.flatMap(([, value]) => value as string[]), ...OIDC_ACTIVITY_TYPES])].sort();
}

/** a key named like a credential must be declared secret, wherever it is */
const CREDENTIAL_KEY = /hash|secret|password|^token$|key$/i;

describe('what of an event may leave the server (docs/security.md, "Credentials never leave through events")', () => {
  it('has a read declaration for every event type the API appends', () => {
    const types = appendedEventTypes();
    expect(types).toEqual(expect.arrayContaining(['AccountCreated', 'PasswordChanged', 'SessionStarted', 'AccessTokenIssued', 'ReaderTokenIssued', 'ApplicationClientSecretIssued', 'ActivationIssued']));
    expect(types.filter((type) => !EVENT_READ_DECLARATIONS[type]), 'event types without a declaration in libs/contracts/src/events/event-redaction.ts').toEqual([]);
  });

  it('declares no event type that nothing appends (a renamed or removed type leaves no stale rule)', () => {
    const types = new Set(appendedEventTypes());
    expect(Object.keys(EVENT_READ_DECLARATIONS).filter((type) => !types.has(type))).toEqual([]);
  });

  it('declares every key named like a credential as secret', () => {
    const shownCredentials = Object.entries(EVENT_READ_DECLARATIONS).flatMap(([type, declaration]) =>
      Object.entries(declaration)
        .filter(([key, rule]) => CREDENTIAL_KEY.test(key) && rule !== 'secret')
        .map(([key]) => `${type}.${key}`),
    );
    expect(shownCredentials).toEqual([]);
  });

  it('reads a password hash, a token hash and a client secret hash as redacted, and keeps the rest', () => {
    const hash = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g';
    expect(readableEventData('PasswordChanged', { accountId: 'a-1', passwordHash: hash, changedAt: 't' })).toEqual({ accountId: 'a-1', passwordHash: REDACTED, changedAt: 't' });
    expect(readableEventData('AccountCreated', { accountId: 'a-1', username: 'ada', passwordHash: null })).toEqual({ accountId: 'a-1', username: 'ada', passwordHash: null });
    expect(readableEventData('SessionStarted', { sessionId: 's', accountId: 'a', tokenHash: 'f'.repeat(64) })).toEqual({ sessionId: 's', accountId: 'a', tokenHash: REDACTED });
    expect(readableEventData('ApplicationClientSecretIssued', { applicationId: 'x', secretHash: 'h', issuedAt: 't' })).toEqual({ applicationId: 'x', secretHash: REDACTED, issuedAt: 't' });
  });

  it('reads an undeclared event type as redacted whole, and an undeclared key as redacted', () => {
    expect(readableEventData('SomethingAddedLater', { accountId: 'a-1', apiKey: 'k' })).toBe(REDACTED);
    expect(undeclaredEventFields('SomethingAddedLater', {})).toEqual(['*']);
    expect(readableEventData('PasswordChanged', { accountId: 'a-1', recoveryCode: '123456' })).toEqual({ accountId: 'a-1', recoveryCode: REDACTED });
    expect(undeclaredEventFields('PasswordChanged', { accountId: 'a-1', recoveryCode: '1' })).toEqual(['recoveryCode']);
    expect(readableEventData('PasswordChanged', 'a text payload')).toBe(REDACTED);
    expect(readableEventData('__proto__', { passwordHash: 'h' })).toBe(REDACTED);
  });

  it('reads the metadata by its own declaration', () => {
    expect(readableEventMetadata({ eventId: 'e', actor: 'a', actorKind: 'account', sourceIp: null, correlationId: 'c', causationId: null, occurredAt: 't', bearer: 'rc_x' })).toEqual({
      eventId: 'e',
      actor: 'a',
      actorKind: 'account',
      sourceIp: null,
      correlationId: 'c',
      causationId: null,
      occurredAt: 't',
      bearer: REDACTED,
    });
  });

  it('redacts a stored event and still folds it (a history folds what may be shown)', () => {
    const stored = {
      streamId: 'account-a-1',
      streamVersion: 0,
      position: { commit: 1, sequence: 0 },
      type: 'PasswordChanged',
      data: { accountId: 'a-1', passwordHash: '$argon2id$x', changedAt: 't' },
      schemaVersion: 1,
      metadata: { eventId: 'e', actor: 'a', actorKind: 'account' as const, sourceIp: null, correlationId: 'c', causationId: null, occurredAt: 't' },
    };
    expect(JSON.stringify(readableEvent(stored))).not.toContain('$argon2');
    expect(stored.data.passwordHash).toBe('$argon2id$x');
  });
});
