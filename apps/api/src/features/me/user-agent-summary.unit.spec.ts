import { describe, expect, it } from 'vitest';
import { isBrowser, summariseUserAgent } from './user-agent-summary';

describe('a user agent as a person recognises it', () => {
  it.each([
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36', 'Chrome 142 on Linux'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86', 'Edge 131 on Windows'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox 133 on Windows'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1', 'Safari 18 on iOS'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15', 'Safari 17 on macOS'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36', 'Chrome 131 on Android'],
    ['curl/8.5.0', 'curl 8.5.0'],
    ['node', 'node'],
  ])('%s -> %s', (userAgent, summary) => expect(summariseUserAgent(userAgent)).toBe(summary));

  it('says nothing about a session it has not seen', () => {
    expect(summariseUserAgent(null)).toBeNull();
    expect(summariseUserAgent('')).toBeNull();
  });

  it('tells a browser from a program', () => {
    expect(isBrowser('Mozilla/5.0 (X11; Linux x86_64)')).toBe(true);
    expect(isBrowser('curl/8.5.0')).toBe(false);
    expect(isBrowser(null)).toBe(false);
  });

  it('reads a long hostile string in linear time and bounds what it keeps', () => {
    expect(summariseUserAgent('a/'.repeat(100_000))!.length).toBeLessThanOrEqual(120);
  });
});
