import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { LeadData, StoredLead } from '../../src/storage/leads.records.js';
import { leadColumns } from '../../src/storage/lead-rows.js';
import type { Store } from '../../src/storage/store.js';

/** What a list test sets on a lead; everything else gets a plain default. */
export interface LeadSpec {
  leadId?: string;
  externalId?: string | null;
  removed?: boolean;
  pipelineId: string;
  stageId: string;
  leadSourceKey?: string | null;
  assigneeId?: string | null;
  followUpDate?: string | null;
  tagIds?: string[];
  budget?: { amount: number; currency: string } | null;
  customerName?: string;
  clientId?: string;
  contactId?: string;
  contactName?: string;
  contactEmail?: string | null;
  contactPhone?: string | null;
  subject?: string | null;
  details?: string | null;
  createdAt?: number;
  updatedAt?: number;
}

export const newLeadId = () => `ld_${randomBytes(9).toString('hex')}`;

export function storedLead(spec: LeadSpec): StoredLead {
  const now = Date.now();
  const leadId = spec.leadId ?? newLeadId();
  const data: LeadData = {
    customer: {
      clientId: spec.clientId ?? `lead-${leadId}`,
      name: spec.customerName ?? 'Acme Traders',
      country: 'IN',
      phone: null,
      address: null,
      city: null,
      state: null,
      pincode: null,
    },
    contact: {
      contactId: spec.contactId ?? `ct_${leadId}`,
      name: spec.contactName ?? 'Asha Rao',
      email: spec.contactEmail ?? null,
      phone: spec.contactPhone ?? null,
      country: 'IN',
      designation: null,
    },
    subject: spec.subject ?? null,
    details: spec.details ?? null,
    budget: spec.budget ?? null,
    reasonKeys: [],
    tagIds: spec.tagIds ?? [],
    customFields: {},
  };
  return {
    leadId,
    externalId: spec.externalId === undefined ? `ext-${leadId}` : spec.externalId,
    removed: spec.removed ?? false,
    source: 'API',
    pipelineId: spec.pipelineId,
    stageId: spec.stageId,
    leadSourceKey: spec.leadSourceKey ?? null,
    assigneeId: spec.assigneeId ?? null,
    followUpDate: spec.followUpDate ?? null,
    data,
    version: 1,
    createdAt: spec.createdAt ?? now,
    updatedAt: spec.updatedAt ?? spec.createdAt ?? now,
  };
}

/**
 * Leads written straight to the store (as the write side stores them: the same column mapping), for
 * list tests that need exact timestamps, removed leads or volume.
 */
export async function insertLeads(store: Store, urlKey: string, specs: LeadSpec[]): Promise<StoredLead[]> {
  const db = store.leads.db;
  const business = await db
    .selectFrom('businesses')
    .select('id')
    .where('url_key', '=', urlKey)
    .executeTakeFirstOrThrow();
  const leads = specs.map(storedLead);
  for (const lead of leads) {
    const row = await db
      .insertInto('leads')
      .values({
        business_pk: business.id,
        lead_id: lead.leadId,
        external_id: lead.externalId,
        removed: lead.removed ? 1 : 0,
        source: lead.source,
        ...leadColumns(lead),
        create_request: null,
        version: 1,
        created_at: lead.createdAt,
        updated_at: lead.updatedAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const tagId of lead.data.tagIds)
      await db.insertInto('lead_tags').values({ lead_pk: row.id, business_pk: business.id, tag_id: tagId }).execute();
  }
  await syncSettled(store, urlKey);
  return leads;
}

/**
 * PostgreSQL's sync horizon (src/storage/sync-positions.ts) stays below every write transaction still
 * open anywhere in the cluster (other test files' included): a test that syncs right after writing
 * first waits until the business's leads are all below it, as a tailing client would see them later.
 */
export async function syncSettled(store: Store, urlKey: string, timeoutMs = 30_000): Promise<void> {
  if (store.kind !== 'postgres') return;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const {
      rows: [row],
    } = await sql<{ settled: boolean }>`select coalesce(max(sync_pos) < sync_horizon(), true) as settled from leads
      where business_pk = (select id from businesses where url_key = ${urlKey})`.execute(store.leads.db);
    if (row?.settled) return;
    if (Date.now() > deadline) throw new Error(`the sync horizon did not pass ${urlKey}'s writes in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
