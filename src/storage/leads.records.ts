import type { CustomFieldValue } from './records.js';

/**
 * A lead as stored and handed out by the store (docs/leads.md): configuration by id (pipeline,
 * stage, reason keys, source key, tag and member ids), so renames show through; the customer and
 * contact snapshots as the lead keeps them. Unset optional values are null.
 */

export interface CustomerSnapshot {
  /** The linked client's clientId. */
  clientId: string;
  name: string;
  country: string;
  phone: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  pincode: string | null;
}

export interface ContactSnapshot {
  contactId: string;
  name: string;
  email: string | null;
  phone: string | null;
  country: string;
  designation: string | null;
}

export interface Budget {
  amount: number;
  currency: string;
}

/** What the `data` column holds: everything of a lead that no list filter needs as a column of its own. */
export interface LeadData {
  customer: CustomerSnapshot;
  contact: ContactSnapshot;
  subject: string | null;
  details: string | null;
  budget: Budget | null;
  /** Reason keys, in the order they were set. */
  reasonKeys: string[];
  /** Tag ids (the lead_tags rows say the same, for filters). */
  tagIds: string[];
  /** Values keyed by lead custom field id. */
  customFields: Record<string, CustomFieldValue>;
}

export type LeadOrigin = 'API' | 'DASHBOARD';

export interface StoredLead {
  leadId: string;
  /** Null for a lead created in the dashboard. */
  externalId: string | null;
  removed: boolean;
  source: LeadOrigin;
  pipelineId: string;
  stageId: string;
  leadSourceKey: string | null;
  assigneeId: string | null;
  /** YYYY-MM-DD. */
  followUpDate: string | null;
  data: LeadData;
  /** Bumped by every write that changes the lead. */
  version: number;
  createdAt: number;
  updatedAt: number;
}

export type ActivityType = 'CREATED' | 'STAGE_CHANGE' | 'COMMENT' | 'INTERNAL_NOTE' | 'FIELD_CHANGE';

/**
 * One field of a lead changed by an edit (a FIELD_CHANGE entry): the field by its answer name
 * (`subject`, `budget`, `assignedTo`, `tags`, `customFields.<id>`, `customer.<member>`, …) and its values
 * before and after, null when unset; configuration by id, like the lead (docs/leads.md "Field history").
 */
export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

/** An activity entry as stored: configuration by id, like the lead. */
export interface StoredActivity {
  activityId: string;
  type: ActivityType;
  author: string;
  body: string | null;
  fromPipelineId: string | null;
  toPipelineId: string | null;
  fromStageId: string | null;
  toStageId: string | null;
  reasonKeys: string[] | null;
  /** FIELD_CHANGE only. */
  change?: FieldChange;
  createdAt: number;
}
