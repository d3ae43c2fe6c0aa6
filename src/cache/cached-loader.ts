import { LRUCache } from 'lru-cache';

/** A value now, or a promise of it: what a cache answers, so that a hit costs no promise and no microtask. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * A bounded, short-lived cache in front of the store. Entries are dropped when the change feed
 * names their key (at once in this process, within moments in others), and expire after `ttlMs`
 * as the safety net. Concurrent misses for one key share a single load.
 */
export class CachedLoader<V extends object> {
  private readonly cache: LRUCache<string, { value: V | null }>;
  private readonly inflight = new Map<string, Promise<V | null>>();
  hits = 0;
  misses = 0;

  constructor(
    private readonly load: (key: string) => Promise<V | undefined>,
    options: { max: number; ttlMs: number },
  ) {
    this.cache = new LRUCache({ max: options.max, ...(options.ttlMs > 0 ? { ttl: options.ttlMs } : {}) });
  }

  async get(key: string): Promise<V | undefined> {
    return this.read(key);
  }

  /** The value at once when cached, else a promise of it (the hot paths test which, to skip a turn). */
  read(key: string): MaybePromise<V | undefined> {
    const cached = this.cache.get(key);
    if (cached) {
      this.hits++;
      return cached.value ?? undefined;
    }
    this.misses++;
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.fetch(key);
      this.inflight.set(key, pending);
    }
    return pending.then((value) => value ?? undefined);
  }

  private async fetch(key: string): Promise<V | null> {
    try {
      const value = (await this.load(key)) ?? null;
      // A change announced while loading must win: only store if nobody invalidated meanwhile.
      if (this.inflight.has(key)) this.cache.set(key, { value });
      return value;
    } finally {
      this.inflight.delete(key);
    }
  }

  /** Drops the entry a change-feed topic `<prefix><key>` names, and everything on `*` (a lost connection). */
  followChanges(changes: { onChange(handler: (topic: string) => void): void }, prefix: string): this {
    changes.onChange((topic) => {
      if (topic === '*') this.clear();
      else if (topic.startsWith(prefix)) this.invalidate(topic.slice(prefix.length));
    });
    return this;
  }

  invalidate(key: string): void {
    this.cache.delete(key);
    this.inflight.delete(key);
  }

  clear(): void {
    this.cache.clear();
    this.inflight.clear();
  }
}

/**
 * A CachedLoader whose entries are dropped when the change feed announces `<topic>:<key>` for any of
 * its topics (or `*`, after a lost connection).
 */
export function topicCache<V extends object>(
  changes: { onChange(handler: (topic: string) => void): void },
  topic: string | readonly string[],
  load: (key: string) => Promise<V | undefined>,
  options: { max: number; ttlMs: number },
): CachedLoader<V> {
  const cache = new CachedLoader(load, options);
  const prefixes = (typeof topic === 'string' ? [topic] : topic).map((name) => `${name}:`);
  changes.onChange((changed) => {
    if (changed === '*') return cache.clear();
    const prefix = prefixes.find((p) => changed.startsWith(p));
    if (prefix) cache.invalidate(changed.slice(prefix.length));
  });
  return cache;
}
