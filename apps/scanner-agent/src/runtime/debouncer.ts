/**
 * The local debounce window: a card held against the reader is read again and again (keyboard-wedge
 * readers repeat the UID every few hundred ms). A read of the same UID within `windowMs` of that
 * card's last read is dropped and restarts the window, so a card resting on the reader for a minute
 * is one scan. Measured on a monotonic clock: a clock step must not turn one long hold into two
 * scans. The server applies its own, longer duplicate window on top; this one only saves the queue.
 */
export class Debouncer {
  private readonly lastSeen = new Map<string, number>();

  constructor(
    private readonly windowMs: number,
    private readonly monotonicMs: () => number = () => performance.now(),
  ) {}

  /** true: a new scan, queue it; false: the same card still held, drop it */
  accept(cardUid: string): boolean {
    if (this.windowMs <= 0) return true;
    const now = this.monotonicMs();
    const last = this.lastSeen.get(cardUid);
    this.lastSeen.set(cardUid, now);
    if (this.lastSeen.size > 1000) this.forgetOlderThan(now - this.windowMs);
    return last === undefined || now - last > this.windowMs;
  }

  private forgetOlderThan(cutoff: number): void {
    for (const [uid, at] of this.lastSeen) if (at < cutoff) this.lastSeen.delete(uid);
  }
}
