/**
 * Test support (not a test): an HTTP proxy between the agent and the API that can drop the API's
 * answer after the API has handled (committed) the request, as a network that fails on the way back
 * does. WebSocket upgrades are passed through untouched.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect } from 'node:net';

export class FaultProxy {
  private server: Server | null = null;
  /** how many more scan posts get their answer dropped */
  dropScanAnswers = 0;
  /** every scan post that went through, with the sequences it carried and whether its answer was dropped */
  readonly scanPosts: Array<{ sequences: number[]; dropped: boolean; status: number }> = [];
  /** a scan post whose body this matches is answered 500 server.internal without reaching the API (a server bug on one scan) */
  failScanPostsWith500: ((body: string) => boolean) | null = null;
  /** how many scan posts were answered 500 that way */
  failedWith500 = 0;

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
                this.scanPosts.push({ sequences, dropped: drop, status: answer.statusCode ?? 0 });
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
    server.on('upgrade', (request, socket, head) => {
      const upstream = connect(this.upstreamPort, '127.0.0.1', () => {
        const headers = Object.entries(request.headers).map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(', ') : value}`);
        upstream.write(`${request.method} ${request.url} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`);
        upstream.write(head);
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
