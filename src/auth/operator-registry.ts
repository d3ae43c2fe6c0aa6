import { CachedLoader } from '../cache/cached-loader.js';
import type { Store } from '../storage/store.js';
import type { OperatorRecord } from '../storage/records.js';

/**
 * Operators as the session guard needs them (their session version), without a database round trip
 * per request. A password change publishes `operator:<publicId>`, which drops the entry in every
 * process, so the operator's other sessions end there within the change feed's delay.
 */
export class OperatorRegistry {
  private readonly operators: CachedLoader<OperatorRecord>;

  constructor(
    private readonly store: Store,
    ttlMs: number,
  ) {
    this.operators = new CachedLoader((publicId) => store.accounts.findOperatorByPublicId(publicId), {
      max: 1_000,
      ttlMs,
    }).followChanges(store.changes, 'operator:');
  }

  get(publicId: string): Promise<OperatorRecord | undefined> {
    return this.operators.get(publicId);
  }

  async changed(publicId: string): Promise<void> {
    await this.store.changes.publish(`operator:${publicId}`);
  }
}
