import { describe, expect, it } from 'vitest';
import { CachedLoader } from '../../src/cache/cached-loader.js';

/** A loader whose loads finish when the test says so, counting them. */
function gatedLoader() {
  const loads: string[] = [];
  let open: (() => void)[] = [];
  const load = (key: string) => {
    loads.push(key);
    return new Promise<{ key: string } | undefined>((resolve) =>
      open.push(() => resolve(key === 'missing' ? undefined : { key })),
    );
  };
  const finish = () => {
    const waiting = open;
    open = [];
    for (const release of waiting) release();
  };
  return { loads, load, finish };
}

describe('CachedLoader', () => {
  it('read answers a cached value at once (no promise), a miss with a promise, and concurrent misses share one load', async () => {
    const { loads, load, finish } = gatedLoader();
    const cache = new CachedLoader(load, { max: 10, ttlMs: 60_000 });
    const first = cache.read('a');
    const second = cache.read('a');
    expect(first).toBeInstanceOf(Promise);
    expect(second).toBeInstanceOf(Promise);
    finish();
    expect(await first).toEqual({ key: 'a' });
    expect(await second).toEqual({ key: 'a' });
    expect(loads).toEqual(['a']);
    expect(cache.read('a')).toEqual({ key: 'a' });
    expect([cache.hits, cache.misses]).toEqual([1, 2]);
  });

  it('remembers that a key has no value: answered at once as undefined, not loaded again', async () => {
    const { loads, load, finish } = gatedLoader();
    const cache = new CachedLoader(load, { max: 10, ttlMs: 60_000 });
    const pending = cache.read('missing');
    finish();
    expect(await pending).toBeUndefined();
    expect(cache.read('missing')).toBeUndefined();
    expect(loads).toEqual(['missing']);
  });

  it('a key invalidated while it loads is answered but not kept: the next read loads again', async () => {
    const { loads, load, finish } = gatedLoader();
    const cache = new CachedLoader(load, { max: 10, ttlMs: 60_000 });
    const pending = cache.read('a');
    cache.invalidate('a');
    finish();
    expect(await pending).toEqual({ key: 'a' });
    const again = cache.read('a');
    expect(again).toBeInstanceOf(Promise);
    finish();
    await again;
    expect(loads).toEqual(['a', 'a']);
  });
});
