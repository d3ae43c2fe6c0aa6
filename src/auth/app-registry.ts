import { createPublicKey, type KeyObject } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { CachedLoader, type MaybePromise } from '../cache/cached-loader.js';
import type { Store } from '../storage/store.js';
import type { AppRecord } from '../storage/records.js';

/**
 * Apps as the auth guard needs them, without a database round trip per request. Attaching,
 * detaching and rotating publish `app:<appId>`, which drops the entry in every process.
 */
export class AppRegistry {
  private readonly apps: CachedLoader<AppRecord>;
  private readonly publicKeys = new LRUCache<string, KeyObject>({ max: 10_000 });

  constructor(
    private readonly store: Store,
    ttlMs: number,
  ) {
    this.apps = new CachedLoader((appId) => store.accounts.findApp(appId), { max: 10_000, ttlMs }).followChanges(
      store.changes,
      'app:',
    );
  }

  get(appId: string): Promise<AppRecord | undefined> {
    return this.apps.get(appId);
  }

  /** The app at once when cached, else a promise of it. */
  read(appId: string): MaybePromise<AppRecord | undefined> {
    return this.apps.read(appId);
  }

  /** The app's current public key, imported once per key version. */
  publicKey(app: AppRecord): KeyObject {
    const cacheKey = `${app.appId}:${app.keyVersion}`;
    let key = this.publicKeys.get(cacheKey);
    if (!key) {
      key = createPublicKey(app.publicKeyPem);
      this.publicKeys.set(cacheKey, key);
    }
    return key;
  }

  async changed(appId: string): Promise<void> {
    await this.store.changes.publish(`app:${appId}`);
  }

  get stats() {
    return { hits: this.apps.hits, misses: this.apps.misses };
  }
}
