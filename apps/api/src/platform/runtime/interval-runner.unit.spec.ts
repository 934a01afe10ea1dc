import type { Logger } from '@nestjs/common';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IntervalRunner } from './interval-runner';

const quietLogger = () => ({ warn: vi.fn() }) as unknown as Logger & { warn: ReturnType<typeof vi.fn> };

describe('IntervalRunner', () => {
  afterEach(() => vi.useRealTimers());

  it('answers a run asked for while one is under way with that run, and runs again once it has ended', async () => {
    const runner = new IntervalRunner<number>(quietLogger());
    let finish: (value: number) => void = () => undefined;
    const job = vi.fn(() => new Promise<number>((resolve) => (finish = resolve)));
    const first = runner.exclusive(job);
    const second = runner.exclusive(job);
    finish(3);
    expect(await first).toBe(3);
    expect(await second).toBe(3);
    expect(job).toHaveBeenCalledTimes(1);
    const third = runner.exclusive(job);
    finish(4);
    expect(await third).toBe(4);
    expect(job).toHaveBeenCalledTimes(2);
  });

  it('logs a failed interval run and stops running on stop', async () => {
    vi.useFakeTimers();
    const logger = quietLogger();
    const runner = new IntervalRunner<number>(logger);
    const job = vi.fn(() => Promise.reject(new Error('database gone')));
    runner.start(1000, job);
    await vi.advanceTimersByTimeAsync(1000);
    expect(logger.warn).toHaveBeenCalledWith('sweep failed: database gone');
    await runner.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(job).toHaveBeenCalledTimes(1);
  });

  it('waits on stop for a run under way', async () => {
    const runner = new IntervalRunner<number>(quietLogger());
    let finished = false;
    void runner.exclusive(
      () =>
        new Promise<number>((resolve) =>
          setTimeout(() => {
            finished = true;
            resolve(1);
          }, 20),
        ),
    );
    await runner.stop();
    expect(finished).toBe(true);
  });
});
