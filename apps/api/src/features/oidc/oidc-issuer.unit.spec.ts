import { describe, expect, it } from 'vitest';
import { listeningUrl } from './oidc-provider.host';

describe('the issuer without ROLLCALL_PUBLIC_URL (docs/security.md, "OpenID Connect provider")', () => {
  it('is the URL the server runs at, localhost for an unspecified bind address', () => {
    expect(listeningUrl('127.0.0.1', 3000)).toBe('http://127.0.0.1:3000');
    expect(listeningUrl('::1', 3000)).toBe('http://[::1]:3000');
    expect(listeningUrl('rollcall.internal', 8080)).toBe('http://rollcall.internal:8080');
    expect(listeningUrl('0.0.0.0', 3000)).toBe('http://localhost:3000');
    expect(listeningUrl('::', 3000)).toBe('http://localhost:3000');
  });
});
