import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { READER_DEFAULT_CONFIGURATION, ZReaderMessage, type TReaderCommand } from '@rollcall/contracts';
import { DomainError, isArmed, readerDecider, readerStream, type ReaderEvent } from '@rollcall/domain';
import { WebSocketServer, type WebSocket } from 'ws';
import { loadState } from '../../platform/commands/handle-command';
import type { Clock } from '../../platform/runtime/clock';
import { CLOCK, EVENT_STORE } from '../../platform/tokens';
import type { EventStore } from '../../platform/event-store/event-store.port';
import { ProjectionProgress } from '../../platform/projections/projection-progress';
import { pathOf, refuseUpgrade } from '../../platform/live/socket-limits';
import { ReaderAuthenticator, type AuthenticatedReader } from '../readers/reader-authenticator';
import { ReaderHealthRecorder } from '../readers/reader-health-recorder';

export const READER_WS_PATH = '/api/v2/reader/ws';
/** close code for a reader whose token stopped being valid (revoked, replaced, reader deleted) */
export const READER_TOKEN_ENDED = 4001;
/** a reader's frames are small JSON (health, acknowledgements): a bigger one closes the socket with 1009 */
export const READER_MAX_FRAME_BYTES = 16 * 1024;
/** a reader that stops answering pings (power cut, cable pulled: a half-open connection) is dropped */
const PING_EVERY_MS = 30_000;

/**
 * The WebSocket from each reader (docs/readers.md): the server sends commands (`configure` on
 * connect, `register_mode.on` / `register_mode.off` as register mode starts and ends on that reader);
 * the reader sends health reports and command acknowledgements. Authenticated by the reader's token
 * at the upgrade (401 otherwise, logged); closed when that token stops being valid.
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
    private readonly progress: ProjectionProgress,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as import('node:http').Server | undefined;
    if (!server) return;
    const wss = new WebSocketServer({ noServer: true, maxPayload: READER_MAX_FRAME_BYTES });
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
            this.connected(reader, ws).catch((error: unknown) => {
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

  private async connected({ readerId }: AuthenticatedReader, ws: WebSocket): Promise<void> {
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
    ws.on('message', (raw) =>
      this.received(readerId, ws, raw.toString()).catch((error: unknown) => this.logger.warn(`reader ${readerId} message not handled: ${error instanceof Error ? error.message : String(error)}`)),
    );
    this.health.noteContact(readerId, this.clock.now().toISOString());
    send(ws, { type: 'configure', command_id: randomUUID(), configuration: READER_DEFAULT_CONFIGURATION });
    const state = await loadState(this.store, readerDecider, readerStream(readerId));
    if (isArmed(state, this.clock.now().toISOString())) send(ws, { type: 'register_mode.on', command_id: randomUUID(), expires_at: state.registerMode.expiresAt });
  }

  private async received(readerId: string, ws: WebSocket, text: string): Promise<void> {
    const at = this.clock.now().toISOString();
    let message;
    try {
      message = ZReaderMessage.parse(JSON.parse(text));
    } catch {
      ws.send(JSON.stringify({ type: 'error', error: { code: 'request.invalid', message: 'Not a reader message (health or command_ack)' } }));
      return;
    }
    try {
      if (message.type === 'health') await this.health.report(readerId, message, at);
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
