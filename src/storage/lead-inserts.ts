import type { Kysely } from 'kysely';
import type { InsertLeadResult, LeadInsert } from './leads.store.js';
import { activityData, leadMadeClientRow, newLeadRow } from './lead-rows.js';
import { runUnnamed as run } from './compiled.js';
import type { Database } from './schema.js';
import { writeAudit } from './audit-lines.js';
import type { OutboxRow } from './webhooks.records.js';

/**
 * Bound values per statement: under SQLite's 32,766 and PostgreSQL's 65,535, so a chunk's rows of one
 * table go in as few statements as both allow.
 */
const MAX_VALUES = 30_000;

type Existing = { lead: LeadInsert['lead']; createRequest: unknown };
/** The stored leads of these externalIds, in the caller's transaction. */
export type ExistingReader = (trx: Kysely<Database>, externalIds: string[]) => Promise<Map<string, Existing>>;

/**
 * Many lead creates written as insertLead writes each one (same rows in the same tables, the counters,
 * words and sync positions kept by the same triggers), but one multi-row INSERT per table for the whole
 * chunk instead of six statements per lead (docs/performance-leads.md "Import"). The leads go first with
 * ON CONFLICT (business, externalId) DO NOTHING: a lead not inserted is `exists` (read in one query) and
 * writes nothing else, as insertLead's loser does. In the caller's transaction.
 */
export async function insertLeadsTogether(
  trx: Kysely<Database>,
  businessPk: number,
  inserts: readonly LeadInsert[],
  readExisting: ExistingReader,
): Promise<InsertLeadResult[]> {
  const leadPks = await insertLeadRows(trx, businessPk, inserts);
  const written = inserts.filter((insert) => leadPks.has(insert.lead.leadId));
  const missing = inserts.filter((insert) => !leadPks.has(insert.lead.leadId)).map((i) => i.lead.externalId!);
  const existing = missing.length === 0 ? new Map<string, Existing>() : await readExisting(trx, missing);
  const clientPks = await insertClients(trx, businessPk, written);
  await insertMany(
    trx,
    'contacts',
    written.flatMap(({ lead, newContact: c }) =>
      c
        ? [
            {
              business_pk: businessPk,
              contact_id: c.contactId,
              client_pk: clientPks.get(lead.data.customer.clientId) ?? null,
              name: c.name,
              email: c.email,
              phone: c.phone,
              country: c.country,
              created_at: lead.createdAt,
            },
          ]
        : [],
    ),
  );
  await insertMany(
    trx,
    'lead_tags',
    written.flatMap(({ lead }) =>
      lead.data.tagIds.map((tagId) => ({ lead_pk: leadPks.get(lead.leadId)!, business_pk: businessPk, tag_id: tagId })),
    ),
  );
  await insertMany(
    trx,
    'lead_activities',
    written.map(({ lead, activity: a }) => ({
      lead_pk: leadPks.get(lead.leadId)!,
      activity_id: a.activityId,
      type: a.type,
      author: a.author,
      data: activityData(a),
      created_at: a.createdAt,
    })),
  );
  await insertMany(trx, 'webhook_outbox', written.flatMap((insert) => insert.events).map(outboxValues));
  for (const { audit } of written) if (audit) await writeAudit(trx, audit);
  return inserts.map((insert): InsertLeadResult => {
    if (leadPks.has(insert.lead.leadId)) return { outcome: 'inserted' };
    const found = existing.get(insert.lead.externalId!);
    if (!found) throw new Error('lead conflict without a stored lead');
    return { outcome: 'exists', ...found };
  });
}

/** The leads, ON CONFLICT DO NOTHING: the row ids of those inserted, by leadId. */
async function insertLeadRows(
  trx: Kysely<Database>,
  businessPk: number,
  inserts: readonly LeadInsert[],
): Promise<Map<string, number>> {
  const rows = inserts.map(({ lead, createRequest }) => newLeadRow(businessPk, lead, createRequest));
  const pks = new Map<string, number>();
  for (const slice of slices(rows)) {
    const query = trx
      .insertInto('leads')
      .values(slice)
      .onConflict((oc) => oc.columns(['business_pk', 'external_id']).doNothing())
      .returning(['id', 'lead_id'])
      .compile();
    for (const row of await run<{ id: number; lead_id: string }>(trx, query)) pks.set(row.lead_id, Number(row.id));
  }
  return pks;
}

/**
 * The clients the leads create, and the row ids of the linked clients their new contacts belong to
 * (insertLead's linkClient, for the chunk at once), by clientId.
 */
async function insertClients(
  trx: Kysely<Database>,
  businessPk: number,
  written: readonly LeadInsert[],
): Promise<Map<string, number>> {
  const pks = new Map<string, number>();
  const created = written.flatMap(({ lead, newClient }) =>
    newClient ? [leadMadeClientRow(businessPk, newClient, lead.createdAt)] : [],
  );
  for (const slice of slices(created)) {
    const query = trx.insertInto('clients').values(slice).returning(['id', 'client_id']).compile();
    for (const row of await run<{ id: number; client_id: string }>(trx, query)) pks.set(row.client_id, Number(row.id));
  }
  const linked = [
    ...new Set(written.filter((i) => !i.newClient && i.newContact).map((i) => i.lead.data.customer.clientId)),
  ];
  for (const slice of slices(linked.map((clientId) => ({ clientId })))) {
    const query = trx
      .selectFrom('clients')
      .select(['id', 'client_id'])
      .where('business_pk', '=', businessPk)
      .where(
        'client_id',
        'in',
        slice.map((s) => s.clientId),
      )
      .compile();
    for (const row of await run<{ id: number; client_id: string }>(trx, query)) pks.set(row.client_id, Number(row.id));
  }
  return pks;
}

const outboxValues = (r: OutboxRow) => ({
  endpoint_pk: r.endpointPk,
  message_id: r.messageId,
  event_type: r.eventType,
  resource_key: r.resourceKey,
  payload: r.payload,
  state: 'pending',
  attempts: 0,
  next_attempt_at: r.createdAt,
  created_at: r.createdAt,
});

type Insertable = 'contacts' | 'lead_tags' | 'lead_activities' | 'webhook_outbox';

/** Rows of one table, in as few multi-row INSERTs as the bound-value limit allows. */
async function insertMany<T extends Insertable>(
  trx: Kysely<Database>,
  table: T,
  rows: Record<string, unknown>[],
): Promise<void> {
  for (const slice of slices(rows)) {
    // `as any`: the rows are built above for exactly this table's columns.
    await run(
      trx,
      trx
        .insertInto(table)
        .values(slice as any)
        .compile(),
    );
  }
}

/**
 * The rows in statements of at most MAX_VALUES bound values (every row of a table binds as many), each
 * of a power-of-two row count (a count's binary digits): a table's INSERT has a few texts, not one per
 * count, so SQLite's statement cache (sqlite-dialect.ts, cleared at 500 texts) keeps its hot statements.
 */
function slices<T extends object>(rows: readonly T[]): T[][] {
  if (rows.length === 0) return [];
  const perRow = Math.max(1, Object.keys(rows[0]!).length);
  let size = 2 ** Math.floor(Math.log2(Math.max(1, Math.floor(MAX_VALUES / perRow))));
  const out: T[][] = [];
  for (let at = 0; at < rows.length; ) {
    while (size > rows.length - at) size /= 2;
    out.push(rows.slice(at, at + size));
    at += size;
  }
  return out;
}
