import { afterAll, describe, expect, it } from 'vitest';
import { Migrator, sql } from 'kysely';
import { insertVolume, syntheticConfig } from '../../bench/leads-volume.js';
import { migrations } from '../../src/storage/migrate.js';
import { openStore, type Store } from '../../src/storage/store.js';
import {
  availableStores,
  configFor,
  privatePostgresDatabase,
  type PrivateDatabase,
  insertBareBusiness,
} from '../helpers/stores.js';

/**
 * Migration 006-lead-counts counts the leads already there: on a database at 004-webhooks holding leads
 * (some removed), migrating fills lead_counts with exactly the live leads per counted key, per business.
 */
const KEY = `business_pk, pipeline_id, stage_id, coalesce(lead_source_key, '') as source, coalesce(assignee_id, '') as assignee,
  case when follow_up_date is null then 1 else 0 end as no_follow_up`;

describe.each(await availableStores())('migration 006-lead-counts on existing leads [%s]', (kind) => {
  let database: PrivateDatabase | undefined;
  let store: Store | undefined;
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it('counts every live lead of every business under its key, removed ones not at all', async () => {
    database = kind === 'postgres' ? await privatePostgresDatabase('crm_leadscale_counts') : undefined;
    store = openStore(configFor(kind, database ? { databaseUrl: database.url } : {}));
    const db = store.leads.db;
    const migrator = new Migrator({ db: db as never, provider: { getMigrations: async () => migrations(kind) } });
    expect((await migrator.migrateTo('004-webhooks')).error).toBeUndefined();
    for (const urlKey of ['counts-a', 'counts-b']) await insertBareBusiness(db, urlKey);
    await insertVolume(db, 'counts-a', syntheticConfig(), { to: 3000, prefix: 'ca' });
    await insertVolume(db, 'counts-b', syntheticConfig(), { to: 1000, prefix: 'cb' });
    await sql`update leads set removed = 1 where id % 17 = 0`.execute(db);
    await store.migrate();
    const expected = await sql<
      Record<string, unknown>
    >`select ${sql.raw(KEY)}, count(*) as n from leads where removed = 0
      group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6`.execute(db);
    const counted = await sql<
      Record<string, unknown>
    >`select business_pk, pipeline_id, stage_id, lead_source_key as source, assignee_id as assignee,
      no_follow_up, sum(live) as n from lead_counts group by 1, 2, 3, 4, 5, 6 having sum(live) <> 0 order by 1, 2, 3, 4, 5, 6`.execute(
      db,
    );
    const plain = (rows: Record<string, unknown>[]) => rows.map((row) => Object.values(row).map(String).join('|'));
    expect(expected.rows.length).toBeGreaterThan(100);
    expect(plain(counted.rows)).toEqual(plain(expected.rows));
  }, 120_000);
});
