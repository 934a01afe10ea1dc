import type { Duplex } from 'node:stream';

/**
 * Writes the WebSocket frames of one burst of live messages to each socket in one system call.
 * A scan or a change reaches every subscribed console as its own frame, and `ws` writes each frame
 * at once (one writev per frame and socket): with a thousand consoles that is a thousand system calls
 * per message, which the scan-to-console benchmark showed as the largest cost of a push. Corking every
 * socket when a burst starts and uncorking on the next turn of the event loop (after the
 * subscriptions' microtasks have sent their frames) lets each socket write the burst at once. A lone
 * message waits for nothing but the end of the current turn.
 */
export class FrameCoalescer {
  private readonly sockets = new Set<Duplex>();
  private holding = false;

  track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  /** corks every socket until the next turn of the event loop; calls within one turn share it */
  holdUntilNextTurn(): void {
    if (this.holding || this.sockets.size === 0) return;
    this.holding = true;
    const held = [...this.sockets];
    for (const socket of held) socket.cork();
    setImmediate(() => {
      this.holding = false;
      for (const socket of held) socket.uncork();
    });
  }
}
