import type { SyncCursor } from './sync-pages.js';

/**
 * A lead list request once parsed and resolved (docs/decisions.md "Lead lists"): configuration by id, values
 * normalised, ready for the store. Every filter present must match; inside one, any value may.
 */

export const SORT_FIELDS = ['createdAt', 'updatedAt', 'followUpDate', 'budget.amount'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

export interface SortKey {
  field: SortField;
  direction: 1 | -1;
}

export interface LeadListFilter {
  pipelineIds?: string[];
  /** Stage ids (stage names, or status values resolved to the stages carrying them). */
  stageIds?: string[];
  /** Also `stage` filter: leads of these pipelines whose stage is none of `knownStageIds` (UNSTAGED). */
  unstaged?: { pipelineIds: string[]; knownStageIds: string[] };
  /** Status values, as the stages carrying them (archived ones included). */
  statusStageIds?: string[];
  tagIds?: string[];
  leadSourceKeys?: string[];
  assigneeIds?: string[];
  /** With assigneeIds: also leads assigned to nobody. */
  unassigned?: boolean;
  externalId?: string;
  clientId?: string;
  contactId?: string;
  contactName?: string;
  /** Lower case. */
  contactEmail?: string;
  /** Normalised as stored. */
  contactPhone?: string;
  /** Epoch ms, inclusive. */
  createdFrom?: number;
  createdTo?: number;
  /** YYYY-MM-DD, inclusive. */
  followUpFrom?: string;
  followUpTo?: string;
  followUpNone?: boolean;
  budgetMin?: number;
  budgetMax?: number;
  updatedFrom?: number;
  /** Folded words; each must match a whole word or a word's beginning. */
  words?: { any: string[]; subject: string[]; details: string[] };
}

export interface LeadListQuery {
  filter: LeadListFilter;
  limit: number;
  skip: number;
  sort: SortKey[];
  /** Present in sync mode (updatedAtFrom or after sent): the position after which the page starts, if any. */
  sync?: { cursor: SyncCursor };
}
