import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from '../errors/app-error.js';
import type { Store } from '../storage/store.js';
import type { WindowCount } from '../storage/rate-limits.store.js';

/** Buckets nobody has touched for a day are deleted, at most once an hour per process. */
const PRUNE_AFTER_MS = 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;

/** Gives back a counted attempt that turned out to be a success. */
export type Release = () => Promise<void>;

/**
 * Failed sign-ins counted in the store, so the limit holds across processes. Keyed by the account
 * (app id or e-mail) together with the source address, so that nobody elsewhere can lock a real app
 * out; and by the address alone, with a ten times higher limit, against spraying many accounts.
 *
 * An attempt that needs a credential check is counted *before* the check and given back when it
 * succeeds, so concurrent guesses cannot all slip under the limit. Bucket names are digests: the
 * table holds no e-mail address and no text a caller chose. When the store fails, the limiter lets
 * the attempt through (and logs it): sign-in then depends on the credential check alone, never on a 500.
 */
export class AuthFailureLimiter {
  private readonly windowMs: number;
  private nextPrune = 0;

  constructor(
    private readonly store: Pick<Store, 'rateLimits'>,
    private readonly config: Pick<Config, 'authFailureLimit' | 'authFailureWindowSeconds'>,
    private readonly now: () => number,
    private readonly log?: Pick<FastifyBaseLogger, 'error'>,
  ) {
    this.windowMs = config.authFailureWindowSeconds * 1000;
  }

  private buckets(account: string, address: string): [string, number][] {
    const digest = (parts: string[]) =>
      `auth:${createHash('sha256').update(JSON.stringify(parts)).digest('base64url')}`;
    return [
      [digest(['account', address, account]), this.config.authFailureLimit],
      [digest(['address', address]), this.config.authFailureLimit * 10],
    ];
  }

  /** 429 while the caller is over a limit: then even a correct credential is refused until the window ends. */
  async assertAllowed(account: string, address: string): Promise<void> {
    const now = this.now();
    const buckets = this.buckets(account, address);
    const counts = await this.guard(() =>
      this.store.rateLimits.peekAll(
        buckets.map(([bucket]) => bucket),
        this.windowMs,
        now,
      ),
    );
    for (const [i, counted] of (counts ?? []).entries()) {
      if (counted.count >= buckets[i]![1]) throw this.tooMany(counted, now);
    }
  }

  /** Counts an attempt before its credential check: 429 when that goes over a limit (the attempt stays counted). */
  async reserve(account: string, address: string): Promise<Release> {
    const now = this.now();
    const counted: [string, WindowCount][] = [];
    for (const [bucket, limit] of this.buckets(account, address)) {
      const hit = await this.guard(() => this.store.rateLimits.hit(bucket, this.windowMs, now));
      if (!hit) continue;
      if (hit.count > limit) throw this.tooMany(hit, now);
      counted.push([bucket, hit]);
    }
    this.pruneNow(now);
    return async () => {
      for (const [bucket, hit] of counted)
        await this.guard(() => this.store.rateLimits.release(bucket, hit.windowStart));
    };
  }

  private tooMany(counted: WindowCount, now: number): AppError {
    return new AppError('TOO_MANY_REQUESTS', 'Too many failed attempts; try again later', undefined, {
      retryAfterSeconds: Math.max(1, Math.ceil((counted.resetAt - now) / 1000)),
    });
  }

  private async guard<T>(operation: () => Promise<T>): Promise<T | undefined> {
    try {
      return await operation();
    } catch (error) {
      this.log?.error({ err: error }, 'sign-in limiter: the store failed; the attempt is let through');
      return undefined;
    }
  }

  private pruneNow(now: number): void {
    if (now < this.nextPrune) return;
    this.nextPrune = now + PRUNE_EVERY_MS;
    void this.guard(() => this.store.rateLimits.prune(now - Math.max(PRUNE_AFTER_MS, this.windowMs)));
  }
}
