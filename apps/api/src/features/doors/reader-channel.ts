import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { READER_DEFAULT_CONFIGURATION, READER_FRAME_MAX_BYTES, READER_SCAN_FRAME_MAX_BYTES, ZReaderMessage, type TReaderCommand, type TReaderErrorFrame } from '@rollcall/contracts';
import { DomainError, isArmed, readerDecider, readerStream, type ReaderEvent } from '@rollcall/domain';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { loadState } from '../../platform/commands/handle-command';
import type { Clock } from '../../platform/runtime/clock';
import { CLOCK, EVENT_STORE } from '../../platform/tokens';
import type { EventStore } from '../../platform/event-store/event-store.port';
import { ProjectionProgress } from '../../platform/projections/projection-progress';
import { pathOf, refuseUpgrade } from '../../platform/live/socket-limits';
import { ReaderAuthenticator, type AuthenticatedReader } from '../readers/reader-authenticator';
import { ReaderHealthRecorder } from '../readers/reader-health-recorder';
import { ReaderChannelScans } from './reader-channel-scans';

export const READER_WS_PATH = '/api/v2/reader/ws';
/** close code for a reader whose token stopped being valid (revoked, replaced, reader deleted) */
export const READER_TOKEN_ENDED = 4001;
/**
 * A reader's frames are small JSON (health, acknowledgements): a bigger one closes the socket with
 * 1009. A scan batch may be bigger, up to READER_SCAN_FRAME_MAX_BYTES (the longest batch the rules
 * allow); past that, ws closes the socket with 1009 before the frame is read.
 */
export const READER_MAX_FRAME_BYTES = READER_FRAME_MAX_BYTES;
/**
 * Frames of one socket waiting for their turn (they are answered in order, one at a time): past it
 * the socket is not read until they drain, so a reader that pipelines holds a bounded memory.
 */
const MAX_WAITING_FRAMES = 8;
/** a reader that stops answering pings (power cut, cable pulled: a half-open connection) is dropped */
const PING_EVERY_MS = 30_000;

/**
 * The WebSocket from each reader (docs/readers.md): the server sends commands (`configure` on
 * connect, `register_mode.on` / `register_mode.off` as register mode starts and ends on that reader);
 * the reader sends health reports, command acknowledgements and batches of scans (answered like
 * `POST reader/scans/batch`, by ReaderChannelScans). Each socket's frames are handled one after the
 * other and answered in the order they came, so a reader may send several without waiting.
 * Authenticated by the reader's token at the upgrade (401 otherwise, logged); closed when that token
 * stops being valid.
 */
@Injectable()
export class ReaderChannel implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ReaderChannel');
  private readonly sockets = new Map<string, Set<WebSocket>>();
  private wss: WebSocketServer | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly readers: ReaderAuthenticator,
    private readonly health: ReaderHealthRecorder,
    private readonly scans: ReaderChannelScans,
    private readonly progress: ProjectionProgress,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as import('node:http').Server | undefined;
    if (!server) return;
    const wss = new WebSocketServer({ noServer: true, maxPayload: READER_SCAN_FRAME_MAX_BYTES });
    this.wss = wss;
    wss.on('error', (error) => this.logger.warn(`reader WebSocket server error: ${error.message}`));
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (pathOf(request) !== READER_WS_PATH) return;
      // for upgrades Node leaves socket errors to us: a client's reset must not end the process
      socket.on('error', () => undefined);
      void this.accept(request).then(
        (reader) => {
          if (socket.destroyed) return;
          wss.handleUpgrade(request, socket, head, (ws) =>
            this.connected(reader, ws, request).catch((error: unknown) => {
              this.logger.warn(`reader ${reader.readerId} not set up: ${error instanceof Error ? error.message : String(error)}`);
              ws.close(1011, 'try again');
            }),
          );
        },
        () => refuseUpgrade(socket, 401, 'Unauthorized'),
      );
    });
    const heartbeat = setInterval(() => {
      for (const ws of wss.clients) {
        const alive = ws as WebSocket & { rollcallAlive?: boolean };
        if (alive.rollcallAlive === false) {
          ws.terminate();
          continue;
        }
        alive.rollcallAlive = false;
        ws.ping();
      }
    }, PING_EVERY_MS).unref();
    wss.once('close', () => clearInterval(heartbeat));
    this.unsubscribe = this.progress.onAdvanced((projection, events) => {
      if (projection !== 'readers_v1') return;
      for (const stored of events) this.forward({ type: stored.type, data: stored.data } as ReaderEvent);
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.unsubscribe?.();
    for (const sockets of this.sockets.values()) for (const socket of sockets) socket.terminate();
    this.sockets.clear();
    await new Promise<void>((resolve) => (this.wss ? this.wss.close(() => resolve()) : resolve()));
  }

  private async accept(request: IncomingMessage): Promise<AuthenticatedReader> {
    const reader = await this.readers.authenticate(request);
    const state = await loadState(this.store, readerDecider, readerStream(reader.readerId));
    if (state.status !== 'active' || state.tokenHash !== reader.tokenHash) throw this.readers.refuse(request, 'token no longer the reader’s');
    return reader;
  }

  private async connected(reader: AuthenticatedReader, ws: WebSocket, upgrade: IncomingMessage): Promise<void> {
    const { readerId } = reader;
    // a frame over the limit, a bad opcode or bad UTF-8: ws closes the socket (1009, 1002, 1007) and reports it here
    ws.on('error', (error) => this.logger.warn(`reader ${readerId} socket closed: ${error.message}`));
    ws.on('pong', () => ((ws as WebSocket & { rollcallAlive?: boolean }).rollcallAlive = true));
    const sockets = this.sockets.get(readerId) ?? new Set<WebSocket>();
    sockets.add(ws);
    this.sockets.set(readerId, sockets);
    ws.on('close', () => {
      sockets.delete(ws);
      if (!sockets.size) this.sockets.delete(readerId);
    });
    // one frame at a time, in order: the answers to pipelined scan batches come back in the order sent
    let turn: Promise<void> = Promise.resolve();
    let waiting = 0;
    ws.on('message', (raw) => {
      waiting += 1;
      if (waiting >= MAX_WAITING_FRAMES && !ws.isPaused) ws.pause();
      turn = turn
        .then(() => this.received(reader, ws, upgrade, raw))
        .catch((error: unknown) => this.logger.warn(`reader ${readerId} message not handled: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => {
          waiting -= 1;
          if (ws.isPaused && waiting < MAX_WAITING_FRAMES / 2) ws.resume();
        });
    });
    this.health.noteContact(readerId, this.clock.now().toISOString());
    send(ws, { type: 'configure', command_id: randomUUID(), configuration: READER_DEFAULT_CONFIGURATION });
    const state = await loadState(this.store, readerDecider, readerStream(readerId));
    if (isArmed(state, this.clock.now().toISOString())) send(ws, { type: 'register_mode.on', command_id: randomUUID(), expires_at: state.registerMode.expiresAt });
  }

  private async received(reader: AuthenticatedReader, ws: WebSocket, upgrade: IncomingMessage, raw: RawData): Promise<void> {
    const { readerId } = reader;
    const text = raw.toString();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const type = (json as { type?: unknown } | null | undefined)?.type;
    // only a scan batch may be bigger than the small frames' limit (ws let it through up to the batch's)
    if (type !== 'scan_batch' && Buffer.byteLength(text) > READER_MAX_FRAME_BYTES) {
      ws.close(1009, `only a scan_batch may be larger than ${READER_MAX_FRAME_BYTES} bytes`);
      return;
    }
    if (json === undefined) return reply(ws, { type: 'error', error: { code: 'request.invalid', message: 'Not JSON: a reader message is a JSON object (health, command_ack or scan_batch)' } });
    if (type === 'scan_batch') {
      // the reader went away while this frame waited: nobody would hear the answer, and it sends the batch again
      if (ws.readyState !== WebSocket.OPEN) return;
      const { frame, tokenEnded } = await this.scans.answer(reader, upgrade, json as { request_id?: unknown });
      reply(ws, frame);
      if (tokenEnded) ws.close(READER_TOKEN_ENDED, 'reader token no longer valid');
      return;
    }
    const at = this.clock.now().toISOString();
    const parsed = ZReaderMessage.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const rule = issue ? `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}` : 'unreadable';
      return reply(ws, { type: 'error', error: { code: 'request.invalid', message: `Not a reader message (health, command_ack or scan_batch): ${rule}` } });
    }
    const message = parsed.data;
    try {
      if (message.type === 'health') await this.health.report(readerId, message, at);
      else if (message.type === 'scan_batch') return;
      else {
        this.health.noteContact(readerId, at);
        if (!message.ok) this.logger.warn(`reader ${readerId} could not carry out command ${message.command_id}: ${message.error ?? 'no reason given'}`);
      }
    } catch (error) {
      this.logger.warn(`reader ${readerId} message not kept: ${error instanceof DomainError || error instanceof Error ? error.message : String(error)}`);
    }
  }

  private forward(event: ReaderEvent): void {
    const sockets = this.sockets.get(event.data.readerId);
    if (!sockets?.size) return;
    switch (event.type) {
      case 'RegisterModeStarted':
        for (const ws of sockets) send(ws, { type: 'register_mode.on', command_id: randomUUID(), expires_at: event.data.expiresAt });
        return;
      case 'RegisterModeEnded':
        for (const ws of sockets) send(ws, { type: 'register_mode.off', command_id: randomUUID(), reason: event.data.reason });
        return;
      case 'ReaderTokenIssued':
      case 'ReaderTokenRevoked':
      case 'DoorReaderDeleted':
        for (const ws of sockets) ws.close(READER_TOKEN_ENDED, 'reader token no longer valid');
        return;
      default:
        return;
    }
  }
}

const send = (ws: WebSocket, command: TReaderCommand) => ws.send(JSON.stringify(command));

/** an answer to a frame; a socket closed meanwhile (the reader went away) gets nothing */
function reply(ws: WebSocket, frame: TReaderErrorFrame | { type: 'scan_batch_ack' }): void {
  if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
}
