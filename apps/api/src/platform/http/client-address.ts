import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';
import proxyAddr from 'proxy-addr';

type RequestWithAddress = IncomingMessage & { rollcallClientAddress?: string | null };

/** IPv4-mapped IPv6 (`::ffff:10.0.0.4`) becomes plain IPv4, so restrictions and logs read one way. */
export function normalizeAddress(address: string): string {
  return ipaddr.isValid(address) ? ipaddr.process(address).toString() : address;
}

/**
 * The caller's address: the socket's peer, or the nearest X-Forwarded-For entry not added by a
 * trusted proxy (proxy-addr, the same rules as Express). A spoofed header from an untrusted peer
 * changes nothing. Computed once per request and kept on it, for HTTP and WebSocket upgrades alike.
 */
export function resolveClientAddress(request: IncomingMessage, trust: (address: string, hop: number) => boolean): string | null {
  const withAddress = request as RequestWithAddress;
  if (withAddress.rollcallClientAddress === undefined) {
    const peer = request.socket.remoteAddress;
    withAddress.rollcallClientAddress = peer ? normalizeAddress(proxyAddr(request as Parameters<typeof proxyAddr>[0], trust)) : null;
  }
  return withAddress.rollcallClientAddress;
}

/** The address resolved for this request, else the socket's peer. */
export function clientAddressOf(request: IncomingMessage): string | null {
  const known = (request as RequestWithAddress).rollcallClientAddress;
  if (known !== undefined) return known;
  const peer = request.socket.remoteAddress;
  return peer ? normalizeAddress(peer) : null;
}

export const compileTrust = (trustedProxies: string[]) => proxyAddr.compile(trustedProxies);

/** Is `address` inside one of `restrictions` (addresses or CIDR ranges)? An empty list allows all. */
export function addressAllowed(address: string | null, restrictions: readonly string[]): boolean {
  if (!restrictions.length) return true;
  if (!address || !ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return restrictions.some((restriction) => {
    if (!restriction.includes('/')) return ipaddr.isValid(restriction) && ipaddr.process(restriction).toString() === parsed.toString();
    const [range, bits] = ipaddr.parseCIDR(restriction);
    return range.kind() === parsed.kind() && parsed.match([range, bits]);
  });
}
