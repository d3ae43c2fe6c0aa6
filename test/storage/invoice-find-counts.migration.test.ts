import { afterAll, describe, expect, it } from 'vitest';
import { Migrator, sql } from 'kysely';
import { migrations } from '../../src/storage/migrate.js';
import { bucketOfMsSql } from '../../src/storage/reports-buckets.js';
import { openStore, type Store } from '../../src/storage/store.js';
import {
  availableStores,
  configFor,
  insertBareBusiness,
  privatePostgresDatabase,
  type PrivateDatabase,
} from '../helpers/stores.js';

/**
 * Migration 032-invoice-find-counts counts the invoices already there: on a database at
 * 031-webhook-attempts-message holding invoices of two businesses, two currencies, every status and
 * several UTC days, and no `listed` or `dated` rollup rows (an older build's triggers wrote none),
 * migrating fills the series with exactly the invoices per business, currency and status, and per
 * business, currency and day; and its triggers keep them so through later changes and deletes.
 */
const STATUSES = ['UNPAID', 'PARTIALLY_PAID', 'PAID', 'CANCELED'];

describe.each(await availableStores())('migration 032-invoice-find-counts on existing invoices [%s]', (kind) => {
  let database: PrivateDatabase | undefined;
  let store: Store | undefined;
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it('counts every invoice under its business, currency and status, and its day; the triggers keep counting', async () => {
    database = kind === 'postgres' ? await privatePostgresDatabase('crm_invoice_counts') : undefined;
    store = openStore(configFor(kind, database ? { databaseUrl: database.url } : {}));
    const db = store.leads.db;
    const migrator = new Migrator({ db: db as never, provider: { getMigrations: async () => migrations(kind) } });
    expect((await migrator.migrateTo('031-webhook-attempts-message')).error).toBeUndefined();
    const now = Date.now();
    for (const [b, urlKey] of ['counts-a', 'counts-b'].entries()) {
      const businessPk = await insertBareBusiness(db, urlKey);
      const rows = Array.from({ length: 150 + 50 * b }, (_, n) => ({
        business_pk: businessPk,
        invoice_id: `${b}${String(n).padStart(23, '0')}`,
        invoice_number: `${urlKey}-${n}`,
        client_id: `${urlKey}-client`,
        status: STATUSES[(n * 7) % 4]!,
        currency: n % 3 === 0 ? 'USD' : 'INR',
        total_minor: 1000,
        paid_minor: 0,
        invoice_date: now - (n % 40) * 7_200_000,
        share_token: `${urlKey}-share-${n}`,
        content: '{}',
        create_request: '{}',
        created_at: now + n,
        updated_at: now + n,
      }));
      await db.insertInto('invoices').values(rows).execute();
    }
    // What a database an older build migrated to 031 holds: no `listed` rows.
    await sql`delete from invoice_rollups where series in ('listed', 'dated')`.execute(db);
    await store.migrate();
    const day = bucketOfMsSql('invoice_date', 'day', kind);
    const expected = () =>
      sql<Record<string, unknown>>`select business_pk, 'listed', currency, status, count(*) as n from invoices
        group by business_pk, currency, status
        union all select business_pk, 'dated', currency, ${sql.raw(day)}, count(*) from invoices
        group by business_pk, currency, ${sql.raw(day)} order by 1, 2, 3, 4`.execute(db);
    const counted = () =>
      sql<Record<string, unknown>>`select business_pk, series, currency, bucket, sum(n) as n from invoice_rollups
        where series in ('listed', 'dated') group by business_pk, series, currency, bucket having sum(n) <> 0
        order by 1, 2, 3, 4`.execute(db);
    const plain = (rows: Record<string, unknown>[]) => rows.map((row) => Object.values(row).map(String).join('|'));
    expect((await expected()).rows.length).toBeGreaterThan(16);
    expect(plain((await counted()).rows)).toEqual(plain((await expected()).rows));
    await sql`update invoices set status = 'CANCELED', invoice_date = invoice_date - 86400000 where id % 5 = 0`.execute(
      db,
    );
    await sql`delete from invoices where id % 11 = 0`.execute(db);
    expect(plain((await counted()).rows)).toEqual(plain((await expected()).rows));
  }, 120_000);
});
