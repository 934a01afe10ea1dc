/** a JSON-RPC id as tRPC's WebSocket protocol carries it (the client chooses it) */
type RequestId = string | number;

interface AskedSubscription {
  path: string;
  jsonrpc: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isRequestId = (value: unknown): value is RequestId => typeof value === 'string' || typeof value === 'number';

/**
 * tRPC's WebSocket protocol on one console socket, read as tRPC's own handler encodes and decodes it
 * (this is the handler's encoder for that socket): which subscriptions run on it, by procedure path,
 * and how each one's data frames begin. A broadcast (live-broadcast.ts, docs/adr/0024) writes its
 * prepared payload to every subscription of its path that runs, without tRPC's per-subscription work.
 *
 * Only the wire decides: a subscription runs from the moment tRPC answers `started` for its id (so a
 * broadcast frame never precedes it) until the client stops it, or tRPC answers `stopped` or an
 * error for that id. A client that reuses the id of a running subscription is refused by tRPC with
 * an error for that id, which ends the running one here too: it only loses its own pushes.
 */
export class SubscriptionWire {
  private readonly asked = new Map<RequestId, AskedSubscription>();
  /** path -> running subscription id -> the beginning of its data frames, up to the data */
  private readonly running = new Map<string, Map<RequestId, string>>();

  /** tRPC's answer as it goes out (a started, data, stopped or error envelope, or the reconnect notice) */
  encode(envelope: unknown): string {
    if (isObject(envelope)) this.answered(envelope);
    return JSON.stringify(envelope);
  }

  /** a client's message as it comes in (one request, a batch of them, or its connection parameters) */
  decode(data: string | ArrayBuffer | Uint8Array): unknown {
    // tRPC's own JSON encoder refuses binary frames with this error, answered as PARSE_ERROR
    if (typeof data !== 'string') throw new Error('jsonEncoder received binary data. JSON uses text frames. Use a binary encoder for binary data.');
    const message: unknown = JSON.parse(data);
    for (const request of Array.isArray(message) ? message : [message]) if (isObject(request)) this.requested(request);
    return message;
  }

  /**
   * The beginnings of the data frames of every subscription of `path` running on this socket: a
   * frame is the beginning, the payload's JSON and `}}`, byte for byte what tRPC's handler sends for
   * `{ id, jsonrpc, result: { type: 'data', data } }`.
   */
  framePrefixes(path: string): Iterable<string> {
    return this.running.get(path)?.values() ?? [];
  }

  private requested(request: Record<string, unknown>): void {
    const { id, method, params } = request;
    if (!isRequestId(id)) return;
    if (method === 'subscription.stop') this.ended(id);
    else if (method === 'subscription' && isObject(params) && typeof params.path === 'string') this.asked.set(id, { path: params.path, jsonrpc: request.jsonrpc });
  }

  private answered(envelope: Record<string, unknown>): void {
    const { id, result } = envelope;
    if (!isRequestId(id)) return;
    if ('error' in envelope) return this.ended(id);
    if (!isObject(result)) return;
    if (result.type === 'stopped') return this.ended(id);
    if (result.type !== 'started') return;
    const asked = this.asked.get(id);
    if (!asked) return;
    this.asked.delete(id);
    // the same keys in the same order as tRPC's envelope; `jsonrpc` only when the client sent one
    const prefix = `${JSON.stringify({ id, jsonrpc: asked.jsonrpc, result: { type: 'data' } }).slice(0, -2)},"data":`;
    let ofPath = this.running.get(asked.path);
    if (!ofPath) this.running.set(asked.path, (ofPath = new Map()));
    ofPath.set(id, prefix);
  }

  private ended(id: RequestId): void {
    this.asked.delete(id);
    for (const [path, ofPath] of this.running) {
      ofPath.delete(id);
      if (ofPath.size === 0) this.running.delete(path);
    }
  }
}
