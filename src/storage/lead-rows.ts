import { sql } from 'kysely';
import type { LeadData, LeadOrigin, StoredActivity, StoredLead } from './leads.records.js';
import type { LeadActivitiesTable, LeadsTable } from './schema.js';

/** The columns a lead read selects: every reader (one lead, a list page) maps them with storedLeadOf. */
export const LEAD_COLUMNS = [
  'leads.lead_id',
  'leads.external_id',
  'leads.removed',
  'leads.source',
  'leads.pipeline_id',
  'leads.stage_id',
  'leads.lead_source_key',
  'leads.assignee_id',
  'leads.follow_up_date',
  'leads.data',
  'leads.version',
  'leads.created_at',
  'leads.updated_at',
] as const;

/** The list columns as one SELECT list, for statements composed by hand. */
export const LEAD_SELECT = sql.raw(LEAD_COLUMNS.join(', '));

export type LeadRow = Pick<
  LeadsTable,
  | 'lead_id'
  | 'external_id'
  | 'removed'
  | 'source'
  | 'pipeline_id'
  | 'stage_id'
  | 'lead_source_key'
  | 'assignee_id'
  | 'follow_up_date'
  | 'data'
  | 'version'
  | 'created_at'
  | 'updated_at'
>;

/** A lead row as the record callers see (presentLead renders it). */
export function storedLeadOf(row: LeadRow): StoredLead {
  return {
    leadId: row.lead_id,
    externalId: row.external_id,
    removed: Number(row.removed) !== 0,
    source: row.source as LeadOrigin,
    pipelineId: row.pipeline_id,
    stageId: row.stage_id,
    leadSourceKey: row.lead_source_key,
    assigneeId: row.assignee_id,
    followUpDate: row.follow_up_date,
    data: JSON.parse(row.data) as LeadData,
    version: Number(row.version),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** A new lead's row (one create, or an import's chunk: the same row). */
export function newLeadRow(businessPk: number, lead: StoredLead, createRequest: unknown) {
  return {
    business_pk: businessPk,
    lead_id: lead.leadId,
    external_id: lead.externalId,
    removed: 0,
    source: lead.source,
    ...leadColumns(lead),
    create_request: JSON.stringify(createRequest),
    version: 1,
    created_at: lead.createdAt,
    updated_at: lead.updatedAt,
  };
}

/** The row of a client a lead's create makes (one create, or an import's chunk: the same row). */
export function leadMadeClientRow(businessPk: number, client: { clientId: string; data: unknown }, createdAt: number) {
  return {
    business_pk: businessPk,
    client_id: client.clientId,
    status: 'active',
    source: 'API',
    data: JSON.stringify(client.data),
    created_at: createdAt,
    updated_at: createdAt,
  };
}

/** The columns of a lead that mirror its `data` for filters, sorts and lookups. */
export function leadColumns(
  lead: Omit<StoredLead, 'leadId' | 'externalId' | 'removed' | 'source' | 'version' | 'createdAt' | 'updatedAt'>,
) {
  const { data } = lead;
  return {
    pipeline_id: lead.pipelineId,
    stage_id: lead.stageId,
    lead_source_key: lead.leadSourceKey,
    assignee_id: lead.assigneeId,
    follow_up_date: lead.followUpDate,
    budget_amount: data.budget?.amount ?? null,
    client_id: data.customer.clientId,
    contact_id: data.contact.contactId,
    contact_name: data.contact.name,
    contact_email: data.contact.email,
    contact_phone: data.contact.phone,
    customer_name: data.customer.name,
    subject: data.subject,
    details: data.details,
    data: JSON.stringify(data),
  };
}

type ActivityRow = Pick<LeadActivitiesTable, 'activity_id' | 'type' | 'author' | 'data' | 'created_at'>;

export function storedActivityOf(row: ActivityRow): StoredActivity {
  const d = JSON.parse(row.data) as Partial<StoredActivity>;
  return {
    activityId: row.activity_id,
    type: row.type as StoredActivity['type'],
    author: row.author,
    body: d.body ?? null,
    fromPipelineId: d.fromPipelineId ?? null,
    toPipelineId: d.toPipelineId ?? null,
    fromStageId: d.fromStageId ?? null,
    toStageId: d.toStageId ?? null,
    reasonKeys: d.reasonKeys ?? null,
    ...(d.change && { change: d.change }),
    createdAt: Number(row.created_at),
  };
}

export function activityData(a: StoredActivity): string {
  const { body, fromPipelineId, toPipelineId, fromStageId, toStageId, reasonKeys, change } = a;
  return JSON.stringify({ body, fromPipelineId, toPipelineId, fromStageId, toStageId, reasonKeys, change });
}
