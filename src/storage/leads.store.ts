import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { StoredActivity, StoredLead } from './leads.records.js';
import { Batcher, type Outcome } from './batcher.js';
import { bindSlots, requireSlots, runUnnamed } from './compiled.js';
import { insertLeadsTogether } from './lead-inserts.js';
import type { StoreKind } from './db.js';
import type { WriteRunner } from './group-commit.js';
import { canName } from './keys.js';
import {
  activityData,
  leadColumns,
  leadMadeClientRow,
  LEAD_COLUMNS,
  newLeadRow,
  storedActivityOf,
  storedLeadOf,
  type LeadRow,
} from './lead-rows.js';
import type { Database } from './schema.js';
import { directReads, type ReadRunner } from './shared-reads.js';
import { writeOutbox, type OutboxRow } from './webhooks.store.js';
import { writeAudit } from './audit-lines.js';
import type { AuditEntry } from './records.js';

export interface ContactRecord {
  contactId: string;
  name: string;
  email: string | null;
  phone: string | null;
  country: string;
}

/** A lead create: the lead, its create request (compared on a retry), and the records it creates with it. */
export interface LeadInsert {
  lead: StoredLead;
  createRequest: unknown;
  /** A client created by the lead (clientId `lead-<leadId>`), as the clients table stores one. */
  newClient: { clientId: string; data: unknown } | null;
  newContact: ContactRecord | null;
  activity: StoredActivity;
  /** Webhook outbox rows (lead.created), written if, and only if, this create inserts. */
  events: OutboxRow[];
  /** An operator's audit line, written with the lead (none when it does not insert). */
  audit?: AuditEntry | null;
}

export type InsertLeadResult =
  | { outcome: 'inserted' }
  | { outcome: 'exists'; lead: StoredLead; createRequest: unknown }
  | { outcome: 'no-business' };

/**
 * What a PATCH decided against the lead as read: the lead to store (null: the row does not change), the
 * entries to add, and the comment and note batches (each added only if its clientRequestId is not
 * already taken on the lead).
 */
export interface LeadChange {
  lead: StoredLead | null;
  activities: StoredActivity[];
  notes: NoteBatch[];
  /** Webhook outbox rows, written after the lead and only when it is rewritten (`lead` not null). */
  events: OutboxRow[];
  /** An operator's audit line, written in the edit's transaction. */
  audit?: AuditEntry | null;
}

/** A PATCH's comments or notes: with a clientRequestId, written only by the first PATCH that claims it. */
export interface NoteBatch {
  kind: 'COMMENT' | 'INTERNAL_NOTE';
  clientRequestId: string | null;
  activities: StoredActivity[];
}

/** A written edit's lead; `stale` when the lead changed since it was read (decide again); undefined when gone. */
export type EditOutcome = StoredLead | 'stale' | undefined;

/** externalIds bound in one read (well under both stores' bound-value limits). */
const EXTERNAL_IDS_PER_READ = 1000;

const URL_KEY_SLOT = '\u0000url_key';
/** A leadId or an externalId: each compiled read has one key. */
const LEAD_KEY_SLOT = '\u0000lead_key';

/**
 * PostgreSQL's lead read for many keys at once, as BATCHED_CLIENT_READ reads clients (see there why
 * the subquery is lateral with a LIMIT): one round trip for the reads of a turn, the same statement
 * text for any batch size, `ordinal` naming the read each row answers. A lead is found only through
 * its own business.
 */
export const BATCHED_LEAD_READ = `select k.ordinal::int4 as ordinal, l.*
  from unnest($1::text[], $2::text[]) with ordinality as k(url_key, lead_id, ordinal)
  cross join lateral (
    select ${LEAD_COLUMNS.map((column) => column.replace('leads.', 'l.')).join(', ')} from leads l
    where l.business_pk = (select b.id from businesses b where b.url_key = k.url_key) and l.lead_id = k.lead_id
    limit 1
  ) l`;

/** The business as a subquery: a lead is found only through its own business. */
const businessOf = (db: Kysely<Database>, urlKey: string) =>
  db.selectFrom('businesses').select('businesses.id').where('businesses.url_key', '=', urlKey);

/**
 * Lead writes and single-lead reads (create, edit, get, activities, remove). Every method takes the
 * business first: another tenant's lead is simply not found. A create and the client and contact it
 * makes are one transaction; an edit runs against the row it locked, so concurrent edits apply one
 * after the other (PostgreSQL: SELECT … FOR UPDATE; SQLite: one connection holds the transaction).
 */
export class LeadsStore {
  /** The point reads, compiled once (see bindSlots): a GET lead and a create's read-first. */
  private readonly findLeadQuery: CompiledQuery<LeadRow>;
  private readonly findByExternalIdQuery: CompiledQuery<LeadRow & { create_request: string | null }>;
  private readonly reads: ReadRunner;
  /** PostgreSQL only: lead reads that arrive together share one statement, as client reads do. */
  private readonly batchedReads: Batcher<[string, string], StoredLead | undefined> | undefined;

  constructor(
    readonly db: Kysely<Database>,
    private readonly kind: StoreKind = 'postgres',
    private readonly groupCommit?: WriteRunner,
    reads?: ReadRunner,
  ) {
    this.reads = reads ?? directReads(db);
    this.batchedReads = kind === 'postgres' ? new Batcher((keys) => this.readBatch(keys)) : undefined;
    this.findLeadQuery = db
      .selectFrom('leads')
      .select(LEAD_COLUMNS)
      .where('leads.business_pk', '=', businessOf(db, URL_KEY_SLOT))
      .where('leads.lead_id', '=', LEAD_KEY_SLOT)
      .compile();
    requireSlots(this.findLeadQuery, [URL_KEY_SLOT, LEAD_KEY_SLOT]);
    this.findByExternalIdQuery = db
      .selectFrom('leads')
      .select([...LEAD_COLUMNS, 'leads.create_request'])
      .where('leads.business_pk', '=', businessOf(db, URL_KEY_SLOT))
      .where('leads.external_id', '=', LEAD_KEY_SLOT)
      .compile();
    requireSlots(this.findByExternalIdQuery, [URL_KEY_SLOT, LEAD_KEY_SLOT]);
  }

  /**
   * A write's transaction. On SQLite it shares the group commit of the writes that arrived in the same
   * turn (one fsync for all; a group that fails is replayed one write at a time, so a refused edit fails
   * alone); on PostgreSQL it is a transaction of its own.
   */
  private transaction<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.groupCommit ? this.groupCommit.run(work) : this.db.transaction().execute(work);
  }

  /**
   * Any state (removed too): the caller decides what is visible. PostgreSQL: one statement for the
   * reads of a turn (BATCHED_LEAD_READ); SQLite: the compiled point read, in the turn's read transaction.
   * Measured against the build that compiled the read per call and ran it alone (bench/experiments/compare.ts
   * "GET lead", 5 rounds of 3 s, medians, 2026-11-25): SQLite 104.2 -> 48.6 µs of CPU per request
   * (10,240 -> 20,721 req/s); PostgreSQL 169.6 + 72.7 -> 53.1 + 11.8 µs, server + database
   * (5,672 -> 18,551 req/s).
   */
  async findLead(urlKey: string, leadId: string): Promise<StoredLead | undefined> {
    if (!canName(urlKey, leadId)) return undefined;
    if (this.batchedReads) return this.batchedReads.add([urlKey, leadId]);
    const {
      rows: [row],
    } = await this.reads.run((db) =>
      db.executeQuery(bindSlots(this.findLeadQuery, { [URL_KEY_SLOT]: urlKey, [LEAD_KEY_SLOT]: leadId })),
    );
    return row && storedLeadOf(row);
  }

  private async readBatch(keys: [string, string][]): Promise<Outcome<StoredLead | undefined>[]> {
    const { rows } = await this.db.executeQuery<LeadRow & { ordinal: number }>(
      CompiledQuery.raw(BATCHED_LEAD_READ, [keys.map(([urlKey]) => urlKey), keys.map(([, leadId]) => leadId)]),
    );
    const byRead: (LeadRow | undefined)[] = keys.map(() => undefined);
    for (const row of rows) byRead[row.ordinal - 1] = row;
    return byRead.map((row) => {
      try {
        return { value: row && storedLeadOf(row) };
      } catch (error) {
        return { error };
      }
    });
  }

  async findByExternalId(
    urlKey: string,
    externalId: string,
  ): Promise<{ lead: StoredLead; createRequest: unknown } | undefined> {
    if (!canName(urlKey, externalId)) return undefined;
    return this.reads.run((db) => this.findByExternalIdIn(db, urlKey, externalId));
  }

  /** The stored leads of many externalIds (an import's chunk) in one query, by externalId. */
  async findByExternalIds(
    urlKey: string,
    externalIds: readonly string[],
  ): Promise<Map<string, { lead: StoredLead; createRequest: unknown }>> {
    const named = externalIds.filter((id) => canName(urlKey, id));
    if (named.length === 0) return new Map();
    return this.reads.run((db) => this.findByExternalIdsIn(db, urlKey, named));
  }

  private async findByExternalIdsIn(db: Kysely<Database>, urlKey: string, externalIds: readonly string[]) {
    const found = new Map<string, { lead: StoredLead; createRequest: unknown }>();
    for (let at = 0; at < externalIds.length; at += EXTERNAL_IDS_PER_READ) {
      const query = db
        .selectFrom('leads')
        .select([...LEAD_COLUMNS, 'leads.create_request'])
        .where('leads.business_pk', '=', businessOf(db, urlKey))
        .where('leads.external_id', 'in', externalIds.slice(at, at + EXTERNAL_IDS_PER_READ))
        .compile();
      for (const row of await runUnnamed<LeadRow & { create_request: string | null }>(db, query)) {
        const createRequest = row.create_request === null ? null : (JSON.parse(row.create_request) as unknown);
        found.set(row.external_id!, { lead: storedLeadOf(row), createRequest });
      }
    }
    return found;
  }

  private async findByExternalIdIn(db: Kysely<Database>, urlKey: string, externalId: string) {
    const {
      rows: [row],
    } = await db.executeQuery(
      bindSlots(this.findByExternalIdQuery, { [URL_KEY_SLOT]: urlKey, [LEAD_KEY_SLOT]: externalId }),
    );
    return (
      row && {
        lead: storedLeadOf(row),
        createRequest: row.create_request === null ? null : (JSON.parse(row.create_request) as unknown),
      }
    );
  }

  async findContact(urlKey: string, contactId: string): Promise<ContactRecord | undefined> {
    if (!canName(urlKey, contactId)) return undefined;
    const row = await this.db
      .selectFrom('contacts')
      .select(['contact_id', 'name', 'email', 'phone', 'country'])
      .where('business_pk', '=', businessOf(this.db, urlKey))
      .where('contact_id', '=', contactId)
      .executeTakeFirst();
    return (
      row && { contactId: row.contact_id, name: row.name, email: row.email, phone: row.phone, country: row.country }
    );
  }

  /**
   * The lead first, INSERT … ON CONFLICT (business, externalId) DO NOTHING: of concurrent creates of
   * one externalId exactly one inserts, and only that one goes on to create the client and contact.
   * Every other one reads the stored lead (waiting on PostgreSQL for the winner's commit).
   */
  async insertLead(urlKey: string, insert: LeadInsert): Promise<InsertLeadResult> {
    return this.transaction(async (trx) => {
      const businessPk = await this.businessPkIn(trx, urlKey);
      if (businessPk === undefined) return { outcome: 'no-business' } as const;
      return this.insertIn(trx, urlKey, businessPk, insert);
    });
  }

  /**
   * Many lead creates (an import's chunk) in one transaction, each as insertLead writes one, with one
   * multi-row INSERT per table (insertLeadsTogether): a taken externalId is that row's `exists`, the
   * others are written. A row that fails otherwise rolls the whole chunk back (the caller then writes
   * its rows one at a time, so each row's error is its own).
   */
  async insertLeads(urlKey: string, inserts: readonly LeadInsert[]): Promise<InsertLeadResult[]> {
    return this.transaction(async (trx) => {
      const businessPk = await this.businessPkIn(trx, urlKey);
      if (businessPk === undefined) return inserts.map(() => ({ outcome: 'no-business' }) as const);
      return insertLeadsTogether(trx, businessPk, inserts, (db, externalIds) =>
        this.findByExternalIdsIn(db, urlKey, externalIds),
      );
    });
  }

  private async businessPkIn(trx: Kysely<Database>, urlKey: string): Promise<number | undefined> {
    const found = await trx.selectFrom('businesses').select('id').where('url_key', '=', urlKey).executeTakeFirst();
    return found ? Number(found.id) : undefined;
  }

  private async insertIn(
    trx: Kysely<Database>,
    urlKey: string,
    businessPk: number,
    insert: LeadInsert,
  ): Promise<InsertLeadResult> {
    const { lead } = insert;
    const inserted = await trx
      .insertInto('leads')
      .values(newLeadRow(businessPk, lead, insert.createRequest))
      .onConflict((oc) => oc.columns(['business_pk', 'external_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) {
      const existing = await this.findByExternalIdIn(trx, urlKey, lead.externalId!);
      if (!existing) throw new Error('lead conflict without a stored lead');
      return { outcome: 'exists', ...existing } as const;
    }
    const leadPk = Number(inserted.id);
    const clientPk = await this.linkClient(trx, businessPk, insert);
    if (insert.newContact) {
      const c = insert.newContact;
      await trx
        .insertInto('contacts')
        .values({
          business_pk: businessPk,
          contact_id: c.contactId,
          client_pk: clientPk,
          name: c.name,
          email: c.email,
          phone: c.phone,
          country: c.country,
          created_at: lead.createdAt,
        })
        .execute();
    }
    await this.writeTags(trx, leadPk, businessPk, lead.data.tagIds, false);
    await this.writeActivities(trx, leadPk, [insert.activity]);
    await writeOutbox(trx, insert.events);
    if (insert.audit) await writeAudit(trx, insert.audit);
    return { outcome: 'inserted' } as const;
  }

  /** The new client, or the linked one's row: a contact created by the lead belongs to it. */
  private async linkClient(trx: Kysely<Database>, businessPk: number, insert: LeadInsert): Promise<number | null> {
    const { lead, newClient } = insert;
    if (newClient) {
      const row = await trx
        .insertInto('clients')
        .values(leadMadeClientRow(businessPk, newClient, lead.createdAt))
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    }
    if (!insert.newContact) return null;
    const row = await trx
      .selectFrom('clients')
      .select('id')
      .where('business_pk', '=', businessPk)
      .where('client_id', '=', lead.data.customer.clientId)
      .executeTakeFirst();
    return row ? Number(row.id) : null;
  }

  /**
   * Writes an edit decided against `basedOn` (the lead as read), if the lead is still that version: the
   * row with one version bump, its entries, the note batches whose clientRequestId this write claims
   * (`ON CONFLICT DO NOTHING` on the lead's request ids), then its events, in one transaction. The
   * version check and the row write are one UPDATE, so of two edits read at the same version one writes
   * and the other answers `stale` before it wrote anything; under the row lock that UPDATE takes, the
   * events of one lead are written in the order its edits commit. Undefined when there is no live lead.
   */
  async writeEdit(urlKey: string, basedOn: StoredLead, change: LeadChange): Promise<EditOutcome> {
    if (!canName(urlKey, basedOn.leadId)) return undefined;
    return this.transaction(async (trx) => {
      const row = await trx
        .selectFrom('leads')
        .select(['leads.id', 'leads.business_pk', 'leads.version'])
        .where('leads.business_pk', '=', businessOf(this.db, urlKey))
        .where('leads.lead_id', '=', basedOn.leadId)
        .where('leads.removed', '=', 0)
        .executeTakeFirst();
      if (!row) return undefined;
      const leadPk = Number(row.id);
      let written: StoredLead = basedOn;
      if (change.lead) {
        written = { ...change.lead, version: basedOn.version + 1 };
        const updated = await trx
          .updateTable('leads')
          .set({ ...changedColumns(basedOn, written), version: written.version, updated_at: written.updatedAt })
          .where('id', '=', leadPk)
          .where('version', '=', basedOn.version)
          .where('removed', '=', 0)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) return 'stale';
        if (written.data.tagIds.join() !== basedOn.data.tagIds.join())
          await this.writeTags(trx, leadPk, Number(row.business_pk), written.data.tagIds, true);
      } else if (Number(row.version) !== basedOn.version) return 'stale';
      await this.writeActivities(trx, leadPk, change.activities);
      for (const batch of change.notes) {
        if (batch.clientRequestId === null || (await this.claimRequestId(trx, leadPk, batch)))
          await this.writeActivities(trx, leadPk, batch.activities);
      }
      await writeOutbox(trx, change.events);
      if (change.audit) await writeAudit(trx, change.audit);
      return written;
    });
  }

  /** Takes a note batch's clientRequestId on the lead; false when an earlier PATCH holds it. */
  private async claimRequestId(trx: Kysely<Database>, leadPk: number, batch: NoteBatch): Promise<boolean> {
    const claimed = await trx
      .insertInto('lead_request_ids')
      .values({ lead_pk: leadPk, kind: batch.kind, client_request_id: batch.clientRequestId! })
      .onConflict((oc) => oc.columns(['lead_pk', 'kind', 'client_request_id']).doNothing())
      .returning('lead_pk')
      .executeTakeFirst();
    return claimed !== undefined;
  }

  private async writeTags(
    trx: Kysely<Database>,
    leadPk: number,
    businessPk: number,
    tagIds: readonly string[],
    replace: boolean,
  ): Promise<void> {
    if (replace) await trx.deleteFrom('lead_tags').where('lead_pk', '=', leadPk).execute();
    if (tagIds.length === 0) return;
    await trx
      .insertInto('lead_tags')
      .values(tagIds.map((tagId) => ({ lead_pk: leadPk, business_pk: businessPk, tag_id: tagId })))
      .execute();
  }

  private async writeActivities(
    trx: Kysely<Database>,
    leadPk: number,
    activities: readonly StoredActivity[],
  ): Promise<void> {
    if (activities.length === 0) return;
    await trx
      .insertInto('lead_activities')
      .values(
        activities.map((a) => ({
          lead_pk: leadPk,
          activity_id: a.activityId,
          type: a.type,
          author: a.author,
          data: activityData(a),
          created_at: a.createdAt,
        })),
      )
      .execute();
  }

  /**
   * A live lead's activity, oldest first, `limit` entries after the entry `after` (an activityId of
   * this lead), FIELD_CHANGE entries only with `fieldChanges`. Undefined when there is no live lead;
   * `badCursor` when `after` is not one of its entries.
   */
  async listActivities(
    urlKey: string,
    leadId: string,
    after: string | null,
    limit: number,
    fieldChanges = false,
  ): Promise<StoredActivity[] | 'badCursor' | undefined> {
    if (!canName(urlKey, leadId)) return undefined;
    const lead = await this.db
      .selectFrom('leads')
      .select('id')
      .where('business_pk', '=', businessOf(this.db, urlKey))
      .where('lead_id', '=', leadId)
      .where('removed', '=', 0)
      .executeTakeFirst();
    if (!lead) return undefined;
    let from = 0;
    if (after !== null) {
      if (!canName(after)) return 'badCursor';
      const cursor = await this.db
        .selectFrom('lead_activities')
        .select('id')
        .where('lead_pk', '=', lead.id)
        .where('activity_id', '=', after)
        .executeTakeFirst();
      if (!cursor) return 'badCursor';
      from = Number(cursor.id);
    }
    let query = this.db
      .selectFrom('lead_activities')
      .select(['activity_id', 'type', 'author', 'data', 'created_at'])
      .where('lead_pk', '=', lead.id)
      .where('id', '>', from);
    if (!fieldChanges) query = query.where('type', '<>', 'FIELD_CHANGE');
    const rows = await query.orderBy('id').limit(limit).execute();
    return rows.map(storedActivityOf);
  }

  /** Removes a live lead (operator): invisible to the interface; its externalId stays taken. */
  /** Removes a live lead, with the operator's audit line in the same transaction. False when there is none. */
  async removeLead(urlKey: string, leadId: string, now: number, audit: AuditEntry | null = null): Promise<boolean> {
    if (!canName(urlKey, leadId)) return false;
    return this.transaction(async (trx) => {
      const result = await trx
        .updateTable('leads')
        .set((eb) => ({ removed: 1, version: eb('version', '+', 1), updated_at: now }))
        .where('business_pk', '=', businessOf(trx, urlKey))
        .where('lead_id', '=', leadId)
        .where('removed', '=', 0)
        .executeTakeFirst();
      const removed = Number(result.numUpdatedRows) > 0;
      if (removed && audit) await writeAudit(trx, audit);
      return removed;
    });
  }

  /**
   * Pipeline and stage ids that live leads of the business still carry (a pipelines PUT may not drop
   * them), from the live counts of migration 006-lead-counts: a few thousand rows, not every lead.
   */
  async pipelinesInUse(urlKey: string): Promise<{ pipelineIds: Set<string>; stageIds: Set<string> }> {
    const { rows } = await sql<{
      pipeline_id: string;
      stage_id: string;
    }>`select distinct pipeline_id, stage_id from lead_counts
      where business_pk = (select id from businesses where url_key = ${urlKey}) and live > 0`.execute(this.db);
    return { pipelineIds: new Set(rows.map((r) => r.pipeline_id)), stageIds: new Set(rows.map((r) => r.stage_id)) };
  }
}

/**
 * Only the columns whose value changes: an update that names a column touches its indexes, and on
 * SQLite the search triggers fire for the text columns named (not for their values), so a stage move
 * re-indexes no text.
 */
function changedColumns(current: StoredLead, next: StoredLead): Partial<ReturnType<typeof leadColumns>> {
  const before = leadColumns(current);
  const after = leadColumns(next);
  const changed: Partial<Record<keyof typeof after, unknown>> = {};
  for (const key of Object.keys(after) as (keyof typeof after)[])
    if (after[key] !== before[key]) changed[key] = after[key];
  return changed as Partial<ReturnType<typeof leadColumns>>;
}
