import type { IncomingMessage } from 'node:http';
import { DomainError } from '@rollcall/domain';
import { describe, expect, it } from 'vitest';
import { EventStoreUnavailableError } from '../../platform/event-store/event-store.port';
import { readerTokenInvalid, type ReaderAuthenticator } from '../readers/reader-authenticator';
import { ReaderChannelScans } from './reader-channel-scans';
import type { ReaderScanRecorder } from './reader-scan-recorder';

/**
 * What the channel answers when the command fails (the int spec drives the rest through the app):
 * a token that stopped being the reader's between the upgrade and this batch (revoked in the instant
 * before the socket is closed for it) is refused as over HTTP, 401, and ends the socket; a storage
 * outage is the HTTP route's 503, the socket stays.
 */
describe('ReaderChannelScans, when the command fails', () => {
  const upgrade = { headers: {}, socket: { remoteAddress: '127.0.0.1' } } as unknown as IncomingMessage;
  const reader = { readerId: 'reader-1', tokenHash: 'hash' };
  const frame = { type: 'scan_batch', request_id: 'r-1', sent_at: '2026-11-23T08:00:00Z', scans: [{ card_uid: '04A1B2C3', sequence: 1, device_time: '2026-11-23T08:00:00Z' }] };
  const refusals: string[] = [];
  const readers = { refuse: (_request: unknown, why: string) => (refusals.push(why), readerTokenInvalid()) } as unknown as ReaderAuthenticator;
  const failingWith = (error: unknown) => new ReaderChannelScans({ record: () => Promise.reject(error) } as unknown as ReaderScanRecorder, readers);

  it('refuses a token no longer the reader’s with 401, logged, and ends the socket', async () => {
    const answer = await failingWith(new DomainError('reader.token_invalid', 'Unknown, revoked or deleted reader token')).answer(reader, upgrade, frame);
    expect(answer).toEqual({ tokenEnded: true, frame: { type: 'error', request_id: 'r-1', status: 401, error: { code: 'reader.token_invalid', message: 'Unknown, revoked or deleted reader token' } } });
    expect(refusals).toHaveLength(1);
  });

  it('answers a storage outage as the HTTP route does (503) and keeps the socket', async () => {
    const answer = await failingWith(new EventStoreUnavailableError('disk I/O error')).answer(reader, upgrade, frame);
    expect(answer.tokenEnded).toBe(false);
    expect(answer.frame).toMatchObject({ type: 'error', request_id: 'r-1', status: 503, error: { code: 'server.unavailable' } });
  });
});
