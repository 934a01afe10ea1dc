import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../sender/backoff';
import { Debouncer } from './debouncer';

describe('Debouncer', () => {
  it('drops a card held against the reader, however long, and takes it again after the window', () => {
    let now = 0;
    const debouncer = new Debouncer(2000, () => now);
    const at = (ms: number, uid = 'AA') => ((now = ms), debouncer.accept(uid));
    expect(at(0)).toBe(true);
    // repeated reads every 500 ms for 10 s: one scan
    expect(Array.from({ length: 20 }, (_, index) => at(500 * (index + 1)))).toEqual(Array(20).fill(false));
    expect(at(10_000 + 2001)).toBe(true);
    // another card is never held back by this one
    expect(at(10_000 + 2002, 'BB')).toBe(true);
  });

  it('keeps every read with a window of 0', () => {
    const debouncer = new Debouncer(0, () => 0);
    expect([debouncer.accept('AA'), debouncer.accept('AA')]).toEqual([true, true]);
  });
});

describe('backoffDelay', () => {
  it('doubles its ceiling per failure up to the cap, with full jitter', () => {
    expect([1, 2, 3, 4, 10].map((failures) => backoffDelay(failures, 500, 4000, () => 1))).toEqual([500, 1000, 2000, 4000, 4000]);
    expect(backoffDelay(5, 500, 4000, () => 0)).toBe(0);
    expect(backoffDelay(0, 500, 4000, () => 1)).toBe(0);
    expect(backoffDelay(1000, 500, 60_000, () => 0.5)).toBe(30_000);
  });
});
