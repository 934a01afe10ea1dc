/**
 * Test support (not a test): a proxy between the agent and the API that can drop the API's answer
 * after the API has handled (committed) the request, as a network that fails on the way back does.
 * A scan request is either way the agent sends scans (docs/readers.md): an HTTP post, or a
 * `scan_batch` frame on the reader's WebSocket, which the proxy relays frame by frame (a dropped
 * answer there cuts the connection, both ways). `actAsOlderServer` answers scan frames the way a
 * server from before scans over the channel does (reader-channel.ts at that time): an error frame
 * naming no request, and 1009 for any frame over 16 KiB.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';

/** what a server from before scans over the channel held every frame to */
const OLDER_SERVER_FRAME_MAX_BYTES = 16 * 1024;

export interface ScanRequest {
  sequences: number[];
  dropped: boolean;
  status: number;
  via: 'http' | 'channel';
}

export class FaultProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<WebSocket>();
  private readonly channels = new WebSocketServer({ noServer: true });
  /** how many more scan requests get their answer dropped */
  dropScanAnswers = 0;
  /** every scan request that went through, with the sequences it carried, whether its answer was dropped, and which way it went */
  readonly scanPosts: ScanRequest[] = [];
  /** a scan request whose body this matches is answered 500 server.internal without reaching the API (a server bug on one scan) */
  failScanPostsWith500: ((body: string) => boolean) | null = null;
  /** how many scan requests were answered 500 that way */
  failedWith500 = 0;
  /** scan frames are answered as a server from before them answers them, and never reach the API */
  actAsOlderServer = false;
  /** scan frames answered that way */
  refusedAsOlderServer = 0;

  constructor(private readonly upstreamPort: number) {}

  async listen(port: number): Promise<void> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks);
        if (request.method === 'POST' && request.url?.startsWith('/api/v2/reader/scans') && this.failScanPostsWith500?.(body.toString())) {
          this.failedWith500 += 1;
          response.writeHead(500, { 'content-type': 'application/json' });
          return void response.end(JSON.stringify({ error: { code: 'server.internal', message: 'Something went wrong on our side' } }));
        }
        const upstream = httpRequest(
          { host: '127.0.0.1', port: this.upstreamPort, method: request.method, path: request.url, headers: request.headers },
          (answer) => {
            const answerChunks: Buffer[] = [];
            answer.on('data', (chunk: Buffer) => answerChunks.push(chunk));
            answer.on('end', () => {
              const isScanPost = request.method === 'POST' && request.url?.startsWith('/api/v2/reader/scans');
              if (isScanPost) {
                const sequences = (JSON.parse(body.toString()) as { scans: Array<{ sequence: number }> }).scans.map((scan) => scan.sequence);
                const drop = this.dropScanAnswers > 0;
                if (drop) this.dropScanAnswers -= 1;
                this.scanPosts.push({ sequences, dropped: drop, status: answer.statusCode ?? 0, via: 'http' });
                // the API has answered, so it has committed: the agent never hears it
                if (drop) return void request.socket.destroy();
              }
              response.writeHead(answer.statusCode ?? 502, answer.headers);
              response.end(Buffer.concat(answerChunks));
            });
          },
        );
        upstream.on('error', () => request.socket.destroy());
        upstream.end(body);
      });
    });
    server.on('upgrade', (request, socket, head) => this.relayChannel(request, socket, head));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  }

  /** the reader's WebSocket, relayed frame by frame; a refused upgrade is answered with the API's status */
  private relayChannel(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => undefined);
    const upstream = new WebSocket(`ws://127.0.0.1:${this.upstreamPort}${request.url ?? '/'}`, { headers: request.headers.authorization ? { authorization: request.headers.authorization } : {} });
    this.sockets.add(upstream);
    upstream.on('error', () => socket.destroy());
    upstream.on('unexpected-response', (_request, answer) => {
      socket.end(`HTTP/1.1 ${answer.statusCode ?? 502} ${answer.statusMessage ?? ''}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      upstream.terminate();
    });
    upstream.on('open', () =>
      this.channels.handleUpgrade(request, socket, head, (client) => {
        this.sockets.add(client);
        /** scan frames on their way to the API: request id -> sequences */
        const inFlight = new Map<string, number[]>();
        const closeBoth = (code: number, reason: Buffer) => {
          for (const end of [client, upstream]) {
            if (end.readyState !== WebSocket.OPEN) continue;
            if ((code >= 1000 && code <= 1014 && ![1004, 1005, 1006].includes(code)) || (code >= 3000 && code <= 4999)) end.close(code, reason);
            else end.terminate();
          }
        };
        client.on('close', closeBoth);
        upstream.on('close', closeBoth);
        client.on('error', () => upstream.terminate());
        client.on('message', (data, isBinary) => {
          const frame = jsonOf(data);
          if (frame?.type === 'scan_batch') {
            const text = data.toString();
            if (this.actAsOlderServer) {
              this.refusedAsOlderServer += 1;
              if (Buffer.byteLength(text) > OLDER_SERVER_FRAME_MAX_BYTES) return closeBoth(1009, Buffer.from('Max payload size exceeded'));
              return client.send(JSON.stringify({ type: 'error', error: { code: 'request.invalid', message: 'Not a reader message (health or command_ack)' } }));
            }
            if (this.failScanPostsWith500?.(text)) {
              this.failedWith500 += 1;
              return client.send(JSON.stringify({ type: 'error', request_id: frame.request_id, status: 500, error: { code: 'server.internal', message: 'Something went wrong on our side' } }));
            }
            inFlight.set(String(frame.request_id), ((frame.scans ?? []) as Array<{ sequence: number }>).map((scan) => scan.sequence));
          }
          upstream.send(data, { binary: isBinary });
        });
        upstream.on('message', (data, isBinary) => {
          const frame = jsonOf(data);
          const sequences = frame && (frame.type === 'scan_batch_ack' || frame.type === 'error') ? inFlight.get(String(frame.request_id)) : undefined;
          if (sequences) {
            inFlight.delete(String(frame?.request_id));
            const drop = this.dropScanAnswers > 0;
            if (drop) this.dropScanAnswers -= 1;
            this.scanPosts.push({ sequences, dropped: drop, status: frame?.type === 'error' ? Number(frame.status) : 200, via: 'channel' });
            // the API has answered, so it has committed: the agent never hears it, and the connection is gone
            if (drop) {
              client.terminate();
              upstream.terminate();
              return;
            }
          }
          client.send(data, { binary: isBinary });
        });
      }),
    );
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.terminate();
    this.channels.close();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

function jsonOf(data: RawData): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(data.toString());
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
