import { sql, type Kysely } from 'kysely';
import { accentTable } from '../../validation/search-words.js';
import type { StoreKind } from '../db.js';

/**
 * Indexes for lead lists (docs/decisions.md "Lead lists") and free-text search, on both stores.
 *
 * Every index leads with business_pk (tenancy is in every query) and skips removed leads (`where
 * removed = 0`: the list never shows them, so they cost no index space). Sorts put leads without the
 * value last in both directions (`(col is null)` first in the key), and break ties by lead_id
 * descending: one index per filter for the default order, one or two per sortable field.
 *
 * Free text needs no extension on either store:
 * - PostgreSQL: a stored generated tsvector, weighted A subject, B details, C customer name, contact
 *   name and e-mail, over text folded by `crm_search_fold` (lower case, Latin/Greek/Cyrillic accents
 *   mapped to their base letter, e-mail and path punctuation to spaces), in one GIN index. Generated,
 *   so every write keeps it in sync without the write side knowing about it.
 * - SQLite: an FTS5 table over the same five columns (unicode61, remove_diacritics 2), an external
 *   content table kept in sync by triggers on leads.
 */

const LIVE = 'where removed = 0';

/** [name, key columns]: created with `LIVE` on both stores. */
const INDEXES: readonly (readonly [string, string])[] = [
  // Default order (createdAt desc) and createdAt ranges; ascending reads it backwards.
  ['leads_list_created', 'business_pk, created_at desc, lead_id desc'],
  // updatedAt sort, and sync pages (updated_at, lead_id ascending: this index read backwards).
  ['leads_list_updated', 'business_pk, updated_at desc, lead_id desc'],
  ['leads_list_follow_up_asc', 'business_pk, (follow_up_date is null), follow_up_date asc, lead_id desc'],
  ['leads_list_follow_up_desc', 'business_pk, (follow_up_date is null), follow_up_date desc, lead_id desc'],
  ['leads_list_budget_asc', 'business_pk, (budget_amount is null), budget_amount asc, lead_id desc'],
  ['leads_list_budget_desc', 'business_pk, (budget_amount is null), budget_amount desc, lead_id desc'],
  // Structured filters (status resolves to stage ids), in the default order.
  ['leads_list_pipeline', 'business_pk, pipeline_id, created_at desc, lead_id desc'],
  ['leads_list_stage', 'business_pk, stage_id, created_at desc, lead_id desc'],
  ['leads_list_source', 'business_pk, lead_source_key, created_at desc, lead_id desc'],
  ['leads_list_assignee', 'business_pk, assignee_id, created_at desc, lead_id desc'],
  // The tag filter's join from lead_tags: live leads of the business by row id, read without the table.
  ['leads_list_live_id', 'business_pk, id'],
  // Exact lookups: few rows each, sorted after the fact. externalId has its unique index already.
  ['leads_list_client', 'business_pk, client_id'],
  ['leads_list_contact', 'business_pk, contact_id'],
  ['leads_list_contact_name', 'business_pk, contact_name'],
  ['leads_list_contact_email', 'business_pk, contact_email'],
  ['leads_list_contact_phone', 'business_pk, contact_phone'],
];

/** Characters that separate words in e-mails, paths and numbers, turned to spaces before parsing. */
const SEPARATORS = ".@-_/+:'";

export function leadsSearchMigration(kind: StoreKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const [name, columns] of INDEXES)
        await sql.raw(`create index ${name} on leads (${columns}) ${LIVE}`).execute(db);
      // followUpDate=none in the default order (PostgreSQL turns `(col is null) = true` into `col is null`,
      // which the (col is null)-keyed index cannot take as its second key).
      await sql
        .raw(
          `create index leads_list_no_follow_up on leads (business_pk, created_at desc, lead_id desc) ${LIVE} and follow_up_date is null`,
        )
        .execute(db);
      // Tag filter: the leads carrying a tag, probed from lead_tags (its primary key serves the reverse).
      await sql.raw('create index lead_tags_business_tag on lead_tags (business_pk, tag_id, lead_pk)').execute(db);
      if (kind === 'postgres') await postgresSearch(db);
      else await sqliteSearch(db);
    },
    async down(): Promise<void> {
      throw new Error('the leads search schema is not reversible');
    },
  };
}

async function postgresSearch(db: Kysely<unknown>): Promise<void> {
  const { from, to } = accentTable();
  const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;
  await sql
    .raw(`create function crm_search_fold(value text) returns text language sql immutable parallel safe as $$
    select translate(lower(coalesce(value, '')), ${quote(from + SEPARATORS)}, ${quote(to + ' '.repeat(SEPARATORS.length))})
  $$`)
    .execute(db);
  await sql
    .raw(`alter table leads add column search tsvector generated always as (
    setweight(to_tsvector('simple'::regconfig, crm_search_fold(subject)), 'A')
    || setweight(to_tsvector('simple'::regconfig, crm_search_fold(details)), 'B')
    || setweight(to_tsvector('simple'::regconfig, crm_search_fold(customer_name || ' ' || contact_name || ' ' || coalesce(contact_email, ''))), 'C')
  ) stored`)
    .execute(db);
  await sql.raw('create index leads_search on leads using gin (search)').execute(db);
}

async function sqliteSearch(db: Kysely<unknown>): Promise<void> {
  const columns = 'subject, details, customer_name, contact_name, contact_email';
  const values = (row: 'new' | 'old') =>
    columns
      .split(', ')
      .map((c) => `${row}.${c}`)
      .join(', ');
  await sql
    .raw(
      `create virtual table leads_fts using fts5(${columns}, content='leads', content_rowid='id', tokenize='unicode61 remove_diacritics 2')`,
    )
    .execute(db);
  await sql
    .raw(`create trigger leads_fts_insert after insert on leads begin
    insert into leads_fts(rowid, ${columns}) values (new.id, ${values('new')}); end`)
    .execute(db);
  await sql
    .raw(`create trigger leads_fts_delete after delete on leads begin
    insert into leads_fts(leads_fts, rowid, ${columns}) values ('delete', old.id, ${values('old')}); end`)
    .execute(db);
  await sql
    .raw(`create trigger leads_fts_update after update of ${columns} on leads begin
    insert into leads_fts(leads_fts, rowid, ${columns}) values ('delete', old.id, ${values('old')});
    insert into leads_fts(rowid, ${columns}) values (new.id, ${values('new')}); end`)
    .execute(db);
}
