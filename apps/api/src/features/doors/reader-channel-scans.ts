import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ZReaderRequestId, ZReaderScanBatchFrame, type TReaderErrorFrame, type TReaderScanBatchAckFrame } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import { ZodError } from 'zod';
import type { RequestContext } from '../../platform/commands/request-context';
import { mapError } from '../../platform/errors/api-error';
import { requestContext } from '../../platform/http/request-context.factory';
import { RecordReaderScansCommand } from '../attendance/commands/record-reader-scans.handler';
import { ReaderAuthenticator, type AuthenticatedReader } from '../readers/reader-authenticator';
import { ReaderScanRecorder } from './reader-scan-recorder';

export interface ChannelScanAnswer {
  frame: TReaderScanBatchAckFrame | TReaderErrorFrame;
  /** the reader's token is no longer valid: the socket is closed after the answer */
  tokenEnded: boolean;
}

/**
 * A `scan_batch` frame on a reader's WebSocket (docs/readers.md, 'Scans over the channel'): the same
 * command as `POST reader/scans/batch`, through the same recorder, answered with the same
 * acknowledgement or the same error body, as a frame carrying the request's id. The reader is the
 * socket's: authenticated at the upgrade, and its token checked against the reader's stream by the
 * handler for every batch, as over HTTP.
 */
@Injectable()
export class ReaderChannelScans {
  constructor(
    private readonly recorder: ReaderScanRecorder,
    private readonly readers: ReaderAuthenticator,
  ) {}

  async answer(reader: AuthenticatedReader, upgrade: IncomingMessage, message: { request_id?: unknown }): Promise<ChannelScanAnswer> {
    const requestId = ZReaderRequestId.safeParse(message.request_id);
    // a request id that cannot be read cannot be echoed: the refusal says which rule it broke
    if (!requestId.success) return { frame: errorFrame(undefined, underField(requestId.error, 'request_id')), tokenEnded: false };
    const id = requestId.data;
    const parsed = ZReaderScanBatchFrame.safeParse(message);
    if (!parsed.success) return { frame: errorFrame(id, parsed.error), tokenEnded: false };
    const batch = parsed.data;
    // each frame is its own request: its own correlation id; where it came from is the socket's
    const context: RequestContext = { ...requestContext(upgrade, null), actor: reader.readerId, actorKind: 'reader', correlationId: randomUUID() };
    try {
      const command = new RecordReaderScansCommand(reader.readerId, reader.tokenHash, batch.sent_at, batch.scans, context, batch.outbox_id ?? null);
      const outcome = await this.recorder.record(command, batch.consistency !== 'none');
      return { frame: { type: 'scan_batch_ack', request_id: id, ...outcome.value, position: outcome.position, consistency: outcome.consistent ? 'consistent' : 'stale' }, tokenEnded: false };
    } catch (error) {
      if (error instanceof DomainError && error.code === 'reader.token_invalid') return { frame: errorFrame(id, this.readers.refuse(upgrade, 'token no longer the reader’s (scans over the WebSocket)')), tokenEnded: true };
      return { frame: errorFrame(id, error), tokenEnded: false };
    }
  }
}

/** the error body and status the HTTP route answers the same failure with (mapError, the one mapping) */
function errorFrame(requestId: string | undefined, error: unknown): TReaderErrorFrame {
  const { status, body } = mapError(error);
  return { type: 'error', ...(requestId === undefined ? {} : { request_id: requestId }), status, error: body.error };
}

/** the issues of a field checked on its own, named by the field */
function underField(error: ZodError, field: string): ZodError {
  return new ZodError(error.issues.map((issue) => ({ ...issue, path: [field, ...issue.path] })));
}
