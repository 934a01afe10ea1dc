import { afterEach, describe, expect, it } from 'vitest';
import { authStore, reportAccessLost, setAccessLostHandler } from './auth-store';

describe('lost access reported before the app listens', () => {
  afterEach(() => setAccessLostHandler(null));

  it('is handed to the handler when the app registers it, an ended session before a missing permission', () => {
    authStore.setToken('t');
    reportAccessLost(403);
    reportAccessLost(401);
    reportAccessLost(403);
    expect(authStore.getToken()).toBeNull();
    const seen: number[] = [];
    setAccessLostHandler((status) => seen.push(status));
    expect(seen).toEqual([401]);
    // handed over once
    setAccessLostHandler((status) => seen.push(status));
    expect(seen).toEqual([401]);
    reportAccessLost(403);
    expect(seen).toEqual([401, 403]);
  });
});
