import type { LeadSettings, LeadSource } from '../storage/lead-settings.records.js';

/** What a new business starts with (docs/decisions.md "Lead configuration (operator side)"). */
export const DEFAULT_LEAD_SOURCES: readonly LeadSource[] = [
  ['WEBSITE', 'Website'],
  ['REFERRAL', 'Referral'],
  ['EMAIL', 'E-mail'],
  ['PHONE', 'Phone'],
  ['SOCIAL', 'Social media'],
  ['EVENT', 'Event'],
  ['OTHER', 'Other'],
].map(([key, label]) => ({ key: key!, label: label!, isArchived: false }));

/** A kind never written holds its default: the seven sources, and nothing else. */
export function withLeadSettingsDefaults(stored: Partial<LeadSettings>): LeadSettings {
  return {
    sources: stored.sources ?? DEFAULT_LEAD_SOURCES.map((s) => ({ ...s })),
    tags: stored.tags ?? [],
    members: stored.members ?? [],
    customFields: stored.customFields ?? [],
  };
}

const DEFAULT_TIME_ZONES: Readonly<Record<string, string>> = {
  IN: 'Asia/Kolkata',
  AE: 'Asia/Dubai',
  SA: 'Asia/Riyadh',
  MY: 'Asia/Kuala_Lumpur',
};

/** The business's time zone when the operator set none (docs/decisions.md "Lead configuration (operator side)"). */
export function defaultTimeZone(country: string): string {
  return DEFAULT_TIME_ZONES[country] ?? 'UTC';
}
