import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ZReaderHealthReport, ZReaderScanBatch, ZReaderScanPost, type TScanBatchAck } from '@rollcall/contracts';
import { DomainError, readerDecider, readerStream } from '@rollcall/domain';
import { Inject } from '@nestjs/common';
import type { Request, Response } from 'express';
import { loadState } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import { RecordReaderScansCommand } from '../../attendance/commands/record-reader-scans.handler';
import { Public } from '../../../platform/access/route-decorators';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import { writeConsistencyHeaders } from '../../../platform/http/consistency-headers';
import { requestContext } from '../../../platform/http/request-context.factory';
import { parseWith } from '../../../platform/http/zod-body';
import { ReaderAuthenticator, type AuthenticatedReader } from '../../readers/reader-authenticator';
import { ReaderHealthRecorder } from '../../readers/reader-health-recorder';
import { ReaderScanRecorder } from '../reader-scan-recorder';
import { z } from 'zod';
import { ZReaderHealthAnswer, ZScanBatchAck } from '@rollcall/contracts';
import { Documented } from '../../../platform/http/openapi/rest-description';

/**
 * The reader protocol (docs/readers.md): what a reader's agent posts. Not sessions: the routes are
 * public for the session guard and each authenticates the reader's own bearer token.
 * Answers are bare JSON (the protocol's own shapes in libs/contracts/src/readers), not v2's `{data}`.
 */
@Controller(['api/v2/reader', 'api/reader'])
@Public()
export class ReaderProtocolController {
  constructor(
    private readonly recorder: ReaderScanRecorder,
    private readonly readers: ReaderAuthenticator,
    private readonly health: ReaderHealthRecorder,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * One scan (`{card_uid, sequence, device_time, sent_at}`) or a batch (`{sent_at, scans: [...]}`).
   * A batch is answered scan by scan; a single scan that is refused answers its error's status.
   */
  @Post('scans')
  @Documented({ summary: "A reader's scans: one scan or a batch, acknowledged scan by scan (docs/readers.md)", answer: ZScanBatchAck, body: z.union([ZReaderScanPost, ZReaderScanBatch]), bare: true, caller: 'reader' })
  @HttpCode(200)
  async scans(@Req() request: Request, @Body() body: unknown, @Res({ passthrough: true }) response: Response): Promise<TScanBatchAck> {
    const reader = await this.readers.authenticate(request);
    if (body && typeof body === 'object' && 'scans' in body) return this.record(request, reader, body, response);
    const single = parseWith(ZReaderScanPost, body);
    const answer = await this.post(request, reader, single.sent_at, [{ card_uid: single.card_uid, sequence: single.sequence, device_time: single.device_time }], response);
    const [ack] = answer.acks;
    if (ack.status === 'refused') throw new DomainError(ack.error.code, ack.error.message, ack.error.code.startsWith('smart_card') ? 'card_uid' : 'sequence');
    return answer;
  }

  @Post('scans/batch')
  @Documented({ summary: "A reader's batch of scans, acknowledged scan by scan (docs/readers.md)", answer: ZScanBatchAck, body: ZReaderScanBatch, bare: true, caller: 'reader' })
  @HttpCode(200)
  async batch(@Req() request: Request, @Body() body: unknown, @Res({ passthrough: true }) response: Response): Promise<TScanBatchAck> {
    return this.record(request, await this.readers.authenticate(request), body, response);
  }

  /** the agent's health report: kept as the reader's latest state, not as an event (ADR 0013) */
  @Post('health')
  @Documented({ summary: "A reader's health report, kept as its latest state; answers the register mode it is armed for", answer: ZReaderHealthAnswer, body: ZReaderHealthReport, bare: true, caller: 'reader' })
  @HttpCode(200)
  async reportHealth(@Req() request: Request, @Body() body: unknown) {
    const reader = await this.readers.authenticate(request);
    const report = parseWith(ZReaderHealthReport, body);
    const state = await loadState(this.store, readerDecider, readerStream(reader.readerId));
    if (state.status !== 'active' || state.tokenHash !== reader.tokenHash) throw this.readers.refuse(request, 'token no longer the reader’s');
    const receivedAt = this.clock.now().toISOString();
    await this.health.report(reader.readerId, report, receivedAt);
    return { received_at: receivedAt, register_mode: state.registerMode && Date.parse(state.registerMode.expiresAt) > Date.parse(receivedAt) ? { expires_at: state.registerMode.expiresAt } : null };
  }

  private record(request: Request, reader: AuthenticatedReader, body: unknown, response: Response) {
    const batch = parseWith(ZReaderScanBatch, body);
    return this.post(request, reader, batch.sent_at, batch.scans, response, batch.outbox_id ?? null);
  }

  private async post(request: Request, reader: AuthenticatedReader, sentAt: string, scans: RecordReaderScansCommand['scans'], response: Response, outboxId: string | null = null): Promise<TScanBatchAck> {
    const context: RequestContext = { ...requestContext(request, null), actor: reader.readerId, actorKind: 'reader' };
    try {
      const command = new RecordReaderScansCommand(reader.readerId, reader.tokenHash, sentAt, scans, context, outboxId);
      // a reader reads nothing back (ADR 0013, 'As built'): `X-Rollcall-Consistency: none` skips the wait for the read models
      const outcome = await this.recorder.record(command, request.headers['x-rollcall-consistency'] !== 'none');
      writeConsistencyHeaders(response, outcome);
      return outcome.value;
    } catch (error) {
      if (error instanceof DomainError && error.code === 'reader.token_invalid') throw this.readers.refuse(request, 'token no longer the reader’s');
      throw error;
    }
  }
}
