import type { CustomFieldDefinition } from './records.js';

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
