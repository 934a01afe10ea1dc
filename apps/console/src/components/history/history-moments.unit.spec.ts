import { describe, expect, it } from 'vitest';
import { positionJustBefore, toLocalSecondsInput } from './history-moments';

describe('history moments', () => {
  it('steps back one position, across a commit boundary too', () => {
    expect(positionJustBefore('120.3')).toBe('120.2');
    expect(positionJustBefore('120.0')).toBe('119.9999999999999999');
    expect(positionJustBefore('0.0')).toBe('0.0');
  });

  it('writes a local date and time with seconds for the picker', () => {
    const local = toLocalSecondsInput('2026-11-22T09:05:07.000Z');
    expect(local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:07$/);
    expect(new Date(local).toISOString()).toBe('2026-11-22T09:05:07.000Z');
    expect(toLocalSecondsInput('not a time')).toBe('');
  });
});
