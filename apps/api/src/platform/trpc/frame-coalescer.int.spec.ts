import { once } from 'node:events';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FrameCoalescer } from './frame-coalescer';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** a real loopback connection: the client socket (what the coalescer holds) and what the server side receives */
async function connection(): Promise<{ client: Socket; received: Buffer[]; server: Server }> {
  const received: Buffer[] = [];
  const server = createServer((peer) => peer.on('data', (chunk: Buffer) => received.push(chunk)));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const client = connect({ host: '127.0.0.1', port: typeof address === 'object' && address ? address.port : 0 });
  await once(client, 'connect');
  return { client, received, server };
}

describe('FrameCoalescer', () => {
  const open: Array<{ client: Socket; server: Server }> = [];
  afterEach(async () => {
    for (const { client, server } of open.splice(0)) {
      client.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('holds the frames written in one turn and sends them together on the next', async () => {
    const link = await connection();
    open.push(link);
    const frames = new FrameCoalescer();
    frames.track(link.client);

    frames.holdUntilNextTurn();
    frames.holdUntilNextTurn(); // a second message of the same burst shares the hold
    for (const frame of ['one;', 'two;', 'three;']) link.client.write(frame);
    // nothing has left the process yet: all three wait in the corked socket
    expect(link.client.writableCorked).toBe(1);
    expect(link.client.writableLength).toBe('one;two;three;'.length);

    await nextTurn();
    expect(link.client.writableCorked).toBe(0);
    await expect.poll(() => Buffer.concat(link.received).toString()).toBe('one;two;three;');
  });

  it('leaves sockets alone when nothing is tracked, and forgets a closed one', async () => {
    const link = await connection();
    open.push(link);
    const frames = new FrameCoalescer();
    frames.holdUntilNextTurn();
    expect(link.client.writableCorked).toBe(0);

    frames.track(link.client);
    link.client.destroy();
    await once(link.client, 'close');
    const other = await connection();
    open.push(other);
    frames.track(other.client);
    frames.holdUntilNextTurn();
    expect(other.client.writableCorked).toBe(1);
    expect(link.client.writableCorked).toBe(0);
    await nextTurn();
    expect(other.client.writableCorked).toBe(0);
  });
});
