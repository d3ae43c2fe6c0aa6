import { topicCache, type CachedLoader } from '../cache/cached-loader.js';
import type { Config } from '../config.js';
import type { PipelineConfig } from '../pipelines/pipelines.types.js';
import { EMPTY_CONFIG } from '../pipelines/pipelines.types.js';
import { PIPELINES_TOPIC } from '../pipelines/pipelines.service.js';
import type { BusinessRecord } from '../storage/records.js';
import type { Store } from '../storage/store.js';
import type { LeadSettings } from '../storage/lead-settings.records.js';
import { defaultTimeZone, withLeadSettingsDefaults } from './lead-settings.defaults.js';

/** Published as `lead-settings:<urlKey>` when an operator changes sources, tags, members or lead custom fields. */
export const LEAD_SETTINGS_TOPIC = 'lead-settings';

/**
 * Everything a lead write or list filter resolves names against, for one business: one snapshot,
 * served from memory, so that a lead write reads no configuration from the database. Dropped in every
 * process when the pipelines, the business or its lead settings change (change feed); the TTL bounds
 * a lost notification.
 */
export interface LeadContext {
  business: BusinessRecord;
  /** The business's IANA time zone (set, or its country's default): "today" for followUpDate. */
  timeZone: string;
  pipelines: PipelineConfig;
  settings: LeadSettings;
}

export function leadContextCache(store: Store, config: Pick<Config, 'cacheTtlMs'>): CachedLoader<LeadContext> {
  return topicCache(
    store.changes,
    ['business', PIPELINES_TOPIC, LEAD_SETTINGS_TOPIC],
    async (urlKey) => {
      const [business, pipelines, settings] = await Promise.all([
        store.accounts.findBusiness(urlKey),
        store.data.getPipelineConfig<PipelineConfig>(urlKey),
        store.leadSettings.get(urlKey),
      ]);
      if (!business || !settings) return undefined;
      return {
        business,
        timeZone: business.timeZone ?? defaultTimeZone(business.country),
        pipelines: pipelines?.document ?? EMPTY_CONFIG,
        settings: withLeadSettingsDefaults(settings),
      };
    },
    { max: 10_000, ttlMs: config.cacheTtlMs },
  );
}
