import { describe, expect, it } from 'vitest';
import { assertWithinLimits, restrictionWithin } from './token-grant';

describe('a token-made token stays inside its maker (docs/adr/0007)', () => {
  it('reads restrictions the way requests are matched: an address is a /32 (/128), mapped IPv4 is IPv4', () => {
    expect(restrictionWithin('127.0.0.1', '127.0.0.1')).toBe(true);
    expect(restrictionWithin('127.0.0.1/32', '127.0.0.1')).toBe(true);
    expect(restrictionWithin('::ffff:127.0.0.1', '127.0.0.0/8')).toBe(true);
    expect(restrictionWithin('10.1.0.0/16', '10.0.0.0/8')).toBe(true);
    expect(restrictionWithin('10.0.0.0/8', '10.1.0.0/16')).toBe(false);
    expect(restrictionWithin('127.0.0.0/8', '127.0.0.1')).toBe(false);
    expect(restrictionWithin('11.0.0.1', '10.0.0.0/8')).toBe(false);
    expect(restrictionWithin('::1', '127.0.0.1')).toBe(false);
    expect(restrictionWithin('2001:db8::1', '2001:db8::/32')).toBe(true);
  });

  it('refuses a later or missing expiry and an empty or wider restriction list, naming the field', () => {
    const limits = { restrictions: ['10.0.0.0/8'], expiresAt: '2030-01-02T00:00:00.000Z' };
    const grant = { title: 't', permissions: ['accounts:read' as const], restrictions: ['10.1.2.3'], expiresAt: '2030-01-02T00:00:00.000Z' };
    expect(() => assertWithinLimits(limits, grant)).not.toThrow();
    expect(() => assertWithinLimits(limits, { ...grant, expiresAt: null })).toThrow(expect.objectContaining({ code: 'auth.forbidden', field: 'expires_at' }));
    expect(() => assertWithinLimits(limits, { ...grant, expiresAt: '2030-01-02T00:00:00.001Z' })).toThrow(expect.objectContaining({ field: 'expires_at' }));
    expect(() => assertWithinLimits(limits, { ...grant, restrictions: [] })).toThrow(expect.objectContaining({ code: 'auth.forbidden', field: 'restrictions' }));
    expect(() => assertWithinLimits(limits, { ...grant, restrictions: ['10.1.2.3', '192.168.0.1'] })).toThrow(expect.objectContaining({ field: 'restrictions' }));
    expect(() => assertWithinLimits({ restrictions: [], expiresAt: null }, { ...grant, restrictions: [], expiresAt: null })).not.toThrow();
  });
});
