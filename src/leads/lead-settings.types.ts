import type { CustomFieldDefinition } from '../clients/client.types.js';

/**
 * The lead configuration of a business (docs/decisions.md "Lead configuration (operator side)"), edited by operators only and resolved
 * by name on every lead write and list filter. Stored as one JSON array per kind; leads keep ids
 * (source keys, tag and member ids) and answer with current names.
 */
export interface LeadSource {
  /** 1 to 64 of A-Z, 0-9 and _; the source's identity (a lead stores the key). */
  key: string;
  label: string;
  isArchived: boolean;
}

export interface Tag {
  id: string;
  name: string;
  isArchived: boolean;
}

export interface Member {
  id: string;
  /** Lower case; unique per business. */
  email: string;
  name: string;
  isArchived: boolean;
}

export interface LeadSettings {
  sources: LeadSource[];
  tags: Tag[];
  members: Member[];
  customFields: CustomFieldDefinition[];
}

export type LeadSettingsKind = keyof LeadSettings;
export const LEAD_SETTINGS_KINDS: readonly LeadSettingsKind[] = ['sources', 'tags', 'members', 'customFields'];

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
export function defaultLeadSettings(): LeadSettings {
  return { sources: DEFAULT_LEAD_SOURCES.map((s) => ({ ...s })), tags: [], members: [], customFields: [] };
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
