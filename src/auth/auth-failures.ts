import type { Config } from '../config.js';
import { AppError } from '../errors/app-error.js';
import type { Store } from '../storage/store.js';

/**
 * Failed sign-ins counted in the store, so the limit holds across processes. Keyed by the account
 * (app id or e-mail) together with the source address, so that nobody elsewhere can lock a real app
 * out; and by the address alone, with a ten times higher limit, against spraying many accounts.
 */
export class AuthFailureLimiter {
  private readonly windowMs: number;

  constructor(private readonly store: Store, private readonly config: Pick<Config, 'authFailureLimit' | 'authFailureWindowSeconds'>, private readonly now: () => number) {
    this.windowMs = config.authFailureWindowSeconds * 1000;
  }

  private buckets(account: string, address: string): [string, number][] {
    return [
      [`auth:${address}:${account}`, this.config.authFailureLimit],
      [`auth:${address}`, this.config.authFailureLimit * 10],
    ];
  }

  async assertAllowed(account: string, address: string): Promise<void> {
    const now = this.now();
    for (const [bucket, limit] of this.buckets(account, address)) {
      if ((await this.store.data.peek(bucket, this.windowMs, now)) >= limit) {
        throw new AppError('TOO_MANY_REQUESTS', 'Too many failed attempts; try again later', undefined, {
          retryAfterSeconds: this.config.authFailureWindowSeconds,
        });
      }
    }
  }

  async recordFailure(account: string, address: string): Promise<void> {
    const now = this.now();
    for (const [bucket] of this.buckets(account, address)) await this.store.data.hit(bucket, this.windowMs, now);
  }
}
