import { LRUCache } from 'lru-cache';
import type { Store } from '../storage/store.js';

/** How often one process writes an app's last-used time at most. */
export const LAST_USED_INTERVAL_MS = 60_000;

/**
 * When each app last used its credentials, without a database write per request (the hot path is
 * benchmarked): each process writes at most once a minute per app, so the time shown is at most a
 * minute (plus the slowest process's share) behind. The write only moves the time forward.
 */
export class LastUsedRecorder {
  private readonly written = new LRUCache<string, number>({ max: 10_000 });

  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    private readonly intervalMs = LAST_USED_INTERVAL_MS,
  ) {}

  /** Undefined when nothing is due (every request but one a minute per app), else the write to wait for. */
  note(appId: string): Promise<void> | undefined {
    const at = this.now();
    const last = this.written.get(appId);
    if (last !== undefined && at - last < this.intervalMs) return undefined;
    this.written.set(appId, at);
    // A failed write must not fail the caller's request: the next request a minute on tries again.
    return this.store.accounts.noteAppUsed(appId, at).catch(() => {
      this.written.delete(appId);
    });
  }
}
