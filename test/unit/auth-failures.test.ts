import { describe, expect, it } from 'vitest';
import { AuthFailureLimiter } from '../../src/auth/auth-failures.js';
import { AppError } from '../../src/errors/app-error.js';
import type { RateLimitStore, WindowCount } from '../../src/storage/rate-limits.store.js';

/** The store's contract in memory, recording every bucket name and every prune. */
class MemoryLimits {
  readonly rows = new Map<string, { count: number; windowStart: number }>();
  readonly prunes: number[] = [];
  failing = false;

  private check(): void {
    if (this.failing) throw new Error('connection terminated');
  }
  async hit(bucket: string, windowMs: number, now: number): Promise<WindowCount> {
    this.check();
    const row = this.rows.get(bucket);
    const fresh = !row || row.windowStart <= now - windowMs;
    const next = fresh ? { count: 1, windowStart: now } : { count: row.count + 1, windowStart: row.windowStart };
    this.rows.set(bucket, next);
    return { ...next, resetAt: next.windowStart + windowMs };
  }
  async peek(bucket: string, windowMs: number, now: number): Promise<WindowCount> {
    this.check();
    const row = this.rows.get(bucket);
    if (!row || row.windowStart <= now - windowMs) return { count: 0, windowStart: now, resetAt: now + windowMs };
    return { ...row, resetAt: row.windowStart + windowMs };
  }
  async peekAll(buckets: string[], windowMs: number, now: number): Promise<WindowCount[]> {
    return Promise.all(buckets.map((bucket) => this.peek(bucket, windowMs, now)));
  }
  async release(bucket: string, windowStart: number): Promise<void> {
    this.check();
    const row = this.rows.get(bucket);
    if (row && row.windowStart === windowStart && row.count > 0) row.count--;
  }
  async prune(before: number): Promise<number> {
    this.check();
    this.prunes.push(before);
    return 0;
  }
}

function setup(limit = 2, windowSeconds = 100) {
  const limits = new MemoryLimits();
  const errors: unknown[] = [];
  let now = 1_700_000_000_000;
  const limiter = new AuthFailureLimiter(
    { rateLimits: limits as unknown as RateLimitStore },
    { authFailureLimit: limit, authFailureWindowSeconds: windowSeconds },
    () => now,
    { error: (...args: unknown[]) => void errors.push(args) } as never,
  );
  return { limits, limiter, errors, advance: (ms: number) => void (now += ms), now: () => now };
}

async function retryAfter(attempt: Promise<unknown>): Promise<number> {
  const error = await attempt.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe('TOO_MANY_REQUESTS');
  return (error as AppError).extraData!.retryAfterSeconds as number;
}

describe('the sign-in failure limiter', () => {
  it('names its buckets by digest: no e-mail, app id or address is stored, and every pair has its own bucket', async () => {
    const { limits, limiter } = setup();
    await limiter.reserve('someone@example.com', '203.0.113.7');
    await limiter.reserve('app_one', '203.0.113.7');
    await limiter.reserve('app_one', '198.51.100.1');
    const names = [...limits.rows.keys()];
    expect(names).toHaveLength(5); // three (account, address) pairs and two addresses
    for (const name of names) {
      expect(name).toMatch(/^auth:[A-Za-z0-9_-]{43}$/);
      expect(name).not.toMatch(/example|app_one|203|198/);
    }
  });

  it('a pair whose parts run together is not another pair ("a:b" + "c" differs from "a" + "b:c")', async () => {
    const { limits, limiter } = setup();
    await limiter.reserve('c', 'a:b');
    await limiter.reserve('b:c', 'a');
    expect(limits.rows.size).toBe(4);
  });

  it('Retry-After is the rest of the window, rounded up, at least one second', async () => {
    const { limiter, advance } = setup(1, 100);
    await limiter.reserve('app', 'addr');
    expect(await retryAfter(limiter.assertAllowed('app', 'addr'))).toBe(100);
    advance(40_500);
    expect(await retryAfter(limiter.reserve('app', 'addr'))).toBe(60);
    advance(59_000);
    expect(await retryAfter(limiter.assertAllowed('app', 'addr'))).toBe(1);
    advance(500);
    await expect(limiter.assertAllowed('app', 'addr')).resolves.toBeUndefined();
  });

  it('a failing store lets the attempt through and logs it, never throws', async () => {
    const { limits, limiter, errors } = setup(1);
    limits.failing = true;
    for (let i = 0; i < 3; i++) {
      await expect(limiter.assertAllowed('app', 'addr')).resolves.toBeUndefined();
      const release = await limiter.reserve('app', 'addr');
      await expect(release()).resolves.toBeUndefined();
    }
    expect(errors.length).toBeGreaterThan(0);
  });

  it('prunes buckets idle for a day, at most once an hour', async () => {
    const { limits, limiter, advance, now } = setup();
    await limiter.reserve('a', 'x');
    expect(limits.prunes).toEqual([now() - 86_400_000]);
    advance(3_599_000);
    await limiter.reserve('b', 'x');
    expect(limits.prunes).toHaveLength(1);
    advance(1000);
    await limiter.reserve('c', 'x');
    expect(limits.prunes).toEqual([expect.any(Number), now() - 86_400_000]);
  });
});
