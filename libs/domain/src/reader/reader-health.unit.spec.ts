import { describe, expect, it } from 'vitest';
import { assessReaderHealth } from './reader-health';

const now = '2026-11-23T07:00:00.000Z';
const ago = (seconds: number) => new Date(Date.parse(now) - seconds * 1000).toISOString();

describe('reader health', () => {
  it('reads the silence since the last contact: online, late after 90 s, offline after 300 s', () => {
    expect(assessReaderHealth({ lastContactAt: null, queueDepth: null }, now).connection).toBe('never');
    expect(assessReaderHealth({ lastContactAt: ago(89), queueDepth: 0 }, now).connection).toBe('online');
    expect(assessReaderHealth({ lastContactAt: ago(90), queueDepth: 0 }, now).connection).toBe('late');
    expect(assessReaderHealth({ lastContactAt: ago(299), queueDepth: 0 }, now).connection).toBe('late');
    expect(assessReaderHealth({ lastContactAt: ago(300), queueDepth: 0 }, now).connection).toBe('offline');
  });

  it('calls a queue over 100 scans a backlog', () => {
    expect(assessReaderHealth({ lastContactAt: ago(1), queueDepth: 100 }, now).backlog).toBe(false);
    expect(assessReaderHealth({ lastContactAt: ago(1), queueDepth: 101 }, now).backlog).toBe(true);
    expect(assessReaderHealth({ lastContactAt: ago(1), queueDepth: null }, now).backlog).toBe(false);
  });

  it('takes other thresholds', () =>
    expect(assessReaderHealth({ lastContactAt: ago(20), queueDepth: 5 }, now, { lateAfterSeconds: 10, offlineAfterSeconds: 60, backlogAbove: 4 })).toEqual({ connection: 'late', backlog: true }));
});
