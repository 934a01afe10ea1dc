import { jsonEncoder } from '@trpc/server/adapters/ws';
import { describe, expect, it } from 'vitest';
import { SubscriptionWire } from './subscription-wire';

const asked = (wire: SubscriptionWire, request: unknown) => wire.decode(JSON.stringify(request));
const started = (wire: SubscriptionWire, id: string | number, jsonrpc?: string) => wire.encode({ id, jsonrpc, result: { type: 'started' } });
const prefixes = (wire: SubscriptionWire, path: string) => [...wire.framePrefixes(path)];
/** a broadcast's frame: the beginning for the subscription, the payload's JSON, and the end */
const frame = (prefix: string, data: unknown) => `${prefix}${JSON.stringify(data)}}}`;

describe('the tRPC protocol of one console socket', () => {
  const payload = [{ kind: 'attendance.scan', account_id: 'a1', door: 'Main "entrance"', flags: ['two_doors'] }];

  it('makes the data frame of a running subscription byte for byte as tRPC encodes it', () => {
    for (const [id, jsonrpc] of [[1, undefined], ['7', undefined], [42, '2.0']] as const) {
      const wire = new SubscriptionWire();
      asked(wire, { id, jsonrpc, method: 'subscription', params: { path: 'live.attendance' } });
      started(wire, id, jsonrpc);
      const [prefix] = prefixes(wire, 'live.attendance');
      // what tRPC's handler sends for the same value: { id, jsonrpc, result: { type: 'data', data } }
      expect(frame(prefix, payload)).toBe(jsonEncoder.encode({ id, jsonrpc, result: { type: 'data', data: payload } }));
    }
  });

  it('counts a subscription from tRPC\'s started until it is stopped, answered stopped or an error', () => {
    const wire = new SubscriptionWire();
    // a batch of requests, as the console's client sends them
    asked(wire, [
      { id: 1, method: 'subscription', params: { path: 'live.attendance' } },
      { id: 2, method: 'subscription', params: { path: 'live.attendance' } },
      { id: 3, method: 'subscription', params: { path: 'live.accounts' } },
      { id: 4, method: 'subscription', params: { path: 'live.attendance' } },
    ]);
    // asked but not started yet: nothing goes to it
    expect(prefixes(wire, 'live.attendance')).toEqual([]);
    for (const id of [1, 2, 3]) started(wire, id);
    wire.encode({ id: 4, error: { message: 'refused', code: -32603, data: { code: 'FORBIDDEN' } } });
    started(wire, 4); // a started that follows its error is not one
    expect(prefixes(wire, 'live.attendance')).toHaveLength(2);
    expect(prefixes(wire, 'live.accounts')).toHaveLength(1);
    // data frames and other answers change nothing
    wire.encode({ id: 1, result: { type: 'data', data: [] } });
    wire.encode({ id: null, method: 'reconnect' });
    expect(prefixes(wire, 'live.attendance')).toHaveLength(2);

    asked(wire, { id: 1, method: 'subscription.stop' });
    expect(prefixes(wire, 'live.attendance')).toEqual(['{"id":2,"result":{"type":"data","data":']);
    wire.encode({ id: 2, result: { type: 'stopped' } });
    wire.encode({ id: 3, error: { message: 'forbidden' } });
    expect(prefixes(wire, 'live.attendance')).toEqual([]);
    expect(prefixes(wire, 'live.accounts')).toEqual([]);
  });

  it('passes every message on to tRPC as its JSON encoder would, and refuses binary frames the same way', () => {
    const wire = new SubscriptionWire();
    const text = JSON.stringify({ id: 1, method: 'query', params: { path: 'auth.me' } });
    expect(wire.decode(text)).toEqual(jsonEncoder.decode(text));
    expect(wire.decode('{"method":"connectionParams","data":{"token":"t"}}')).toEqual({ method: 'connectionParams', data: { token: 't' } });
    const binary = new Uint8Array([123, 125]);
    expect(() => wire.decode(binary)).toThrow();
    expect(() => jsonEncoder.decode(binary)).toThrow();
    expect(() => wire.decode('{not json')).toThrow(SyntaxError);
    expect(wire.encode({ id: 1, result: { type: 'started' } })).toBe(jsonEncoder.encode({ id: 1, result: { type: 'started' } }));
  });
});
