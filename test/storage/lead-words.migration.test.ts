import { afterAll, describe, expect, it } from 'vitest';
import { Migrator, sql, type Kysely } from 'kysely';
import { insertVolume, syntheticConfig, volumeLead } from '../../bench/leads-volume.js';
import { migrations } from '../../src/storage/migrate.js';
import type { Database } from '../../src/storage/schema.js';
import { openStore, type Store } from '../../src/storage/store.js';
import { searchWords } from '../../src/validation/search-words.js';
import {
  availableStores,
  configFor,
  privatePostgresDatabase,
  type PrivateDatabase,
  insertBareBusiness,
} from '../helpers/stores.js';

/**
 * Migration 007-lead-words fills the word table from the leads already there, and its triggers keep it
 * equal to a rebuild from the live leads through inserts, edits, removals, restores and deletes. The
 * words found are the ones the query side splits (checked against a JavaScript scan of the same leads).
 */
const config = syntheticConfig();
const NAMES = (row: string) =>
  `${row}customer_name || ' ' || ${row}contact_name || ' ' || coalesce(${row}contact_email, '')`;

/** Rows of lead_words that a rebuild would not write, and rows a rebuild would write that are missing (one row per lead and word, 008-lead-words-best). */
async function drift(db: Kysely<Database>, kind: string): Promise<number> {
  const rebuilt =
    kind === 'postgres'
      ? `select l.business_pk, w.word, l.id, max(w.weight), bit_or(1 << (w.weight - 1)), l.created_at, l.pipeline_id
        from leads l, crm_lead_words(l.subject, l.details, ${NAMES('l.')}) w where l.removed = 0 group by l.business_pk, w.word, l.id, l.created_at, l.pipeline_id`
      : `select l.business_pk, j.value ->> 0, l.id, max(j.value ->> 1), sum(1 << ((j.value ->> 1) - 1)), l.created_at, l.pipeline_id
        from leads l, json_each(crm_lead_words(l.subject, l.details, ${NAMES('l.')})) j where l.removed = 0 group by l.business_pk, j.value ->> 0, l.id, l.created_at, l.pipeline_id`;
  const stored = 'select business_pk, word, lead_pk, weight, fields, created_at, pipeline_id from lead_words';
  const rows = await sql<{
    n: number | string;
  }>`select count(*) as n from (select * from (${sql.raw(rebuilt)} except ${sql.raw(stored)}) a
    union all select * from (${sql.raw(stored)} except ${sql.raw(rebuilt)}) b) d`.execute(db);
  return Number(rows.rows[0]!.n);
}

/** (business, tag) pairs whose live count differs from a count of their live leads. */
async function tagDrift(db: Kysely<Database>): Promise<string[]> {
  const rows = await sql<{ business_pk: number; tag_id: string; counted: number | string; live: number | string }>`
    select k.business_pk, k.tag_id, coalesce(r.n, 0) as counted, coalesce(c.live, 0) as live
    from (select business_pk, tag_id from lead_tags union select business_pk, tag_id from lead_tag_counts) k
    left join (select t.business_pk, t.tag_id, count(*) as n from lead_tags t join leads l on l.id = t.lead_pk where l.removed = 0 group by 1, 2) r
      on r.business_pk = k.business_pk and r.tag_id = k.tag_id
    left join (select business_pk, tag_id, sum(live) as live from lead_tag_counts group by 1, 2) c on c.business_pk = k.business_pk and c.tag_id = k.tag_id`.execute(
    db,
  );
  return rows.rows
    .filter((r) => Number(r.counted) !== Number(r.live))
    .map((r) => `${r.business_pk}/${r.tag_id}: ${r.counted} leads, counted ${r.live}`);
}

describe.each(await availableStores())(
  'migrations 007-lead-words and 008-lead-words-best (words and tag counts) on existing leads [%s]',
  (kind) => {
    let database: PrivateDatabase | undefined;
    let store: Store | undefined;
    afterAll(async () => {
      await store?.close();
      await database?.drop();
    });

    it('backfills the live leads, finds what the query side would, and its triggers keep it (and the tag counts) equal to a rebuild', async () => {
      database = kind === 'postgres' ? await privatePostgresDatabase('crm_leadwords') : undefined;
      store = openStore(configFor(kind, database ? { databaseUrl: database.url } : {}));
      const db = store.leads.db;
      const migrator = new Migrator({ db: db as never, provider: { getMigrations: async () => migrations(kind) } });
      expect((await migrator.migrateTo('006-lead-counts')).error).toBeUndefined();
      for (const urlKey of ['words-a', 'words-b']) await insertBareBusiness(db, urlKey);
      await insertVolume(db, 'words-a', config, { to: 1500, prefix: 'wa' });
      await insertVolume(db, 'words-b', config, { to: 500, prefix: 'wb' });
      await store.migrate();
      expect(await drift(db, kind)).toBe(0);
      expect(await tagDrift(db)).toEqual([]);

      // What a JavaScript scan of the same leads (the query side's splitting) finds for a prefix.
      const expected = (prefix: string) =>
        Array.from({ length: 1500 }, (_, n) => volumeLead(n, 'wa', config)).filter(
          (lead) =>
            !lead.removed &&
            [
              lead.data.subject,
              lead.data.details,
              lead.data.customer.name,
              lead.data.contact.name,
              lead.data.contact.email,
            ].some((text) => searchWords(text ?? '').some((word) => word.startsWith(prefix))),
        ).length;
      for (const prefix of ['sol', 'payroll', 'asha', 'example', 'rao']) {
        const page = await store.leadLists.page('words-a', {
          filter: { words: { any: [prefix], subject: [], details: [] } },
          limit: 10,
          skip: 0,
          sort: [],
        });
        expect(page.total, prefix).toBe(expected(prefix));
        expect(page.total, prefix).toBeGreaterThan(0);
      }

      // Writes after the migration: new leads, edited text, removals and restores, a business's leads deleted.
      await insertVolume(db, 'words-a', config, { from: 1500, to: 2000, prefix: 'wa' });
      await sql`update leads set subject = 'Edited ' || lead_id, details = null where id % 7 = 0`.execute(db);
      await sql`update leads set removed = 1 - removed where id % 11 = 0`.execute(db);
      await sql`update leads set subject = 'Solo Ödön ' || lead_id where id % 5 = 0`.execute(db);
      await sql`update leads set details = subject, subject = details where id % 3 = 0`.execute(db);
      await sql`update leads set contact_email = null, customer_name = 'Ünïcode Çorp' where id % 13 = 0`.execute(db);
      // Moved to another pipeline (008-lead-words-best: the rows carry it), alone and with an edited subject.
      await sql`update leads set pipeline_id = 'pl_moved' where id % 17 = 0`.execute(db);
      await sql`update leads set pipeline_id = 'pl_moved_again', subject = 'Moved ' || lead_id where id % 29 = 0`.execute(
        db,
      );
      await sql`delete from lead_tags where lead_pk in (select id from leads where business_pk = (select id from businesses where url_key = 'words-b'))`.execute(
        db,
      );
      await sql`delete from leads where business_pk = (select id from businesses where url_key = 'words-b')`.execute(
        db,
      );
      expect(await drift(db, kind)).toBe(0);
      expect(await tagDrift(db)).toEqual([]);
      // Tags moved, and leads deleted with their tags by the cascade (no explicit delete first).
      await sql`delete from lead_tags where lead_pk % 4 = 0`.execute(db);
      await sql`insert into lead_tags (lead_pk, business_pk, tag_id) select id, business_pk, 'tag_v19' from leads where id % 6 = 0 and id not in (select lead_pk from lead_tags where tag_id = 'tag_v19')`.execute(
        db,
      );
      await sql`update leads set removed = 1 - removed where id % 23 = 0`.execute(db);
      await sql`delete from leads where id % 19 = 0`.execute(db);
      expect(await drift(db, kind)).toBe(0);
      expect(await tagDrift(db)).toEqual([]);
      const words = await sql<{ n: number | string }>`select count(*) as n from lead_words`.execute(db);
      expect(Number(words.rows[0]!.n)).toBeGreaterThan(10_000);
    }, 120_000);
  },
);
