import type { Config } from '../config.js';
import { topicCache, type CachedLoader } from '../cache/cached-loader.js';
import type { CustomFieldDefinition } from '../custom-fields/custom-fields.service.js';
import type { BusinessRecord } from '../storage/records.js';
import type { Store } from '../storage/store.js';

/** What client rules need to know about the business: its record and its custom field definitions. */
export interface BusinessContext {
  business: BusinessRecord;
  customFields: CustomFieldDefinition[];
  /** Fields whose values an idempotent retry compares: live ones, and none while custom fields are off. */
  liveFieldIds: Set<string>;
}

/** Cached per business, dropped on `business:<urlKey>` (business patch, custom field changes) in every process. */
export function businessContextCache(store: Store, config: Pick<Config, 'cacheTtlMs'>): CachedLoader<BusinessContext> {
  return topicCache(
    store.changes,
    'business',
    async (urlKey) => {
      const [business, fields] = await Promise.all([
        store.accounts.findBusiness(urlKey),
        store.data.getCustomFields<CustomFieldDefinition[]>(urlKey),
      ]);
      if (!business) return undefined;
      const customFields = fields?.document ?? [];
      // Turned off, the feature's stored values take no part in an idempotent comparison, as archived fields' do.
      const live = business.customFieldsEnabled ? customFields.filter((f) => !f.isArchived) : [];
      return { business, customFields, liveFieldIds: new Set(live.map((f) => f.id)) };
    },
    { max: 10_000, ttlMs: config.cacheTtlMs },
  );
}
