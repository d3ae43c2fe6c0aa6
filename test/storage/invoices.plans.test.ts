import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery, sql } from 'kysely';
import { insertInvoiceVolume, volumeClient, volumeCreatedAt, volumeNumber } from '../../bench/invoices-volume.js';
import { testConfig } from '../../src/config.js';
import type { InvoiceListQuery } from '../../src/storage/invoices.records.js';
import { openStore, type Store } from '../../src/storage/store.js';
import {
  availableStores,
  insertBareBusiness,
  privatePostgresDatabase,
  type PrivateDatabase,
} from '../helpers/stores.js';

/**
 * Issue 36 item 7: with enough invoices for the planner to care (one business of 200,000 and another of
 * 20,000, analysed, as bench/invoices-volume.ts writes them), the find's first page and total under the
 * default sort and under each filter of invoices-interface 4.3, and both phases of a sync page, never
 * read the invoices table sequentially. The planner's own choice, no setting forced.
 */
const postgres = (await availableStores()).includes('postgres');
const BIG = 'invoice-plans-big';
const BIG_COUNT = 200_000;
const DAY = 86_400_000;

const base = (filter: InvoiceListQuery['filter'], extra: Partial<InvoiceListQuery> = {}): InvoiceListQuery => ({
  filter,
  limit: 10,
  skip: 0,
  sort: [],
  ...extra,
});
const middle = volumeCreatedAt(BIG_COUNT / 2);
const CASES: [string, InvoiceListQuery][] = [
  ['default sort', base({})],
  ...(['createdAt', 'invoiceNumber', 'invoiceDate'] as const).flatMap((field) =>
    ([1, -1] as const).map(
      (direction) =>
        [`$sort[${field}]=${direction}`, base({}, { sort: [{ field, direction }] })] as [string, InvoiceListQuery],
    ),
  ),
  ['client', base({ clientIds: [volumeClient('pb', 42)] })],
  ['client (two)', base({ clientIds: [volumeClient('pb', 42), volumeClient('pb', 43)] })],
  ['status', base({ statuses: ['PARTIALLY_PAID'] })],
  ['status (two)', base({ statuses: ['CANCELED', 'PARTIALLY_PAID'] })],
  ['invoiceNumber', base({ invoiceNumber: volumeNumber('pb', 4242) })],
  ['invoiceDate range', base({ dateFrom: middle, dateTo: middle + 7 * DAY })],
  ['invoiceDate from', base({ dateFrom: middle })],
  ['sync from', base({}, { sync: { cursor: { phase: 'catch-up', from: middle, start: null, after: null } } })],
  [
    'sync after',
    base(
      {},
      { sync: { cursor: { phase: 'catch-up', from: null, start: 1e12, after: { updatedAt: middle, key: 'ab' } } } },
    ),
  ],
  ['sync following', base({}, { sync: { cursor: { phase: 'follow', from: null, position: 0, key: 'ab' } } })],
];

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Rows Removed by Filter'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

const READ_TABLES = ['invoices', 'invoice_rollups'];

/** Every node of the plan that reads invoices or their rollups: the table, its kind, index and its bounds, and the rows it discarded. */
function invoiceScans(
  node: PlanNode,
): { table: string; type: string; index?: string; cond?: string; removed: number }[] {
  const table = node['Relation Name'];
  const own =
    table !== undefined && READ_TABLES.includes(table)
      ? [
          {
            table,
            type: node['Node Type'],
            ...(node['Index Name'] && { index: node['Index Name'] }),
            ...(node['Index Cond'] && { cond: node['Index Cond'] }),
            removed: (node['Rows Removed by Filter'] ?? 0) * (node['Actual Loops'] ?? 1),
          },
        ]
      : [];
  return [...own, ...(node.Plans ?? []).flatMap(invoiceScans)];
}

describe.runIf(postgres)('invoice find and sync plans on PostgreSQL (issue 36 item 7)', () => {
  let database: PrivateDatabase;
  let store: Store;

  const scansOf = async (statement: { sql: string; parameters: readonly unknown[] }) => {
    const explained = await store.leads.db.executeQuery<{ 'QUERY PLAN': unknown }>(
      CompiledQuery.raw(`explain (analyze, format json) ${statement.sql}`, [...statement.parameters]),
    );
    return invoiceScans((explained.rows[0]!['QUERY PLAN'] as { Plan: PlanNode }[])[0]!.Plan);
  };

  beforeAll(async () => {
    database = await privatePostgresDatabase('crm_invoiceplans');
    store = openStore(testConfig({ databaseUrl: database.url, pgPoolSize: 2 }));
    await store.migrate();
    for (const urlKey of [BIG, 'invoice-plans-other']) await insertBareBusiness(store.leads.db, urlKey);
    await insertInvoiceVolume(store.leads.db, BIG, { count: BIG_COUNT, prefix: 'pb' });
    await insertInvoiceVolume(store.leads.db, 'invoice-plans-other', { count: 20_000, prefix: 'po' });
    await sql`vacuum analyze invoices`.execute(store.leads.db);
  }, 300_000);

  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it.each(CASES)('%s: every statement reads invoices through an index that serves it', async (_name, query) => {
    const statements = await store.invoiceLists.compile(BIG, query);
    expect(statements.length).toBeGreaterThan(0);
    for (const [i, statement] of statements.entries()) {
      const scans = await scansOf(statement);
      const shown = JSON.stringify(scans);
      expect(scans.length, shown).toBeGreaterThan(0);
      // A total by nothing, by status or by invoiceDate alone is the live counts' (migration 032): by the
      // first two it reads no invoice; by a date, only the invoices of half a day at each bound.
      const { statuses, dateFrom, dateTo, ...others } = query.filter;
      const dated = dateFrom !== undefined || dateTo !== undefined;
      const counted =
        !query.sync && i === 1 && Object.values(others).every((value) => value === undefined) && !(dated && statuses);
      const tables = new Set(scans.map((scan) => scan.table));
      if (!counted) expect([...tables], shown).toEqual(['invoices']);
      else expect([...tables].sort(), shown).toEqual(dated ? ['invoice_rollups', 'invoices'] : ['invoice_rollups']);
      // The rollups of two businesses are a few hundred rows: the planner rightly reads them whole.
      expect(
        scans.filter((scan) => scan.table === 'invoices' && scan.type.includes('Seq Scan')),
        shown,
      ).toEqual([]);
      // An index that only narrows to the business, then filters its invoices, is no index for the filter.
      expect(
        scans.reduce((sum, scan) => sum + scan.removed, 0),
        shown,
      ).toBeLessThanOrEqual(2_000);
    }
  });

  it('a first page keeps its plan: PostgreSQL plans the page statement five times, then reuses a generic plan', async () => {
    // One connection, so that its prepared statements are the session's the check reads.
    const single = openStore(testConfig({ databaseUrl: database.url, pgPoolSize: 1 }));
    try {
      for (let i = 0; i < 8; i++) await single.invoiceLists.find(BIG, base({}));
      const { rows } = await single.leads.db.executeQuery<{ generic_plans: string; custom_plans: string }>(
        CompiledQuery.raw(
          `select generic_plans, custom_plans from pg_prepared_statements where statement like '%order by%'`,
        ),
      );
      // With LIMIT and OFFSET as values, every call was planned again (0 generic, 8 custom).
      expect(rows.map((row) => [Number(row.generic_plans), Number(row.custom_plans)])).toEqual([[3, 5]]);
    } finally {
      await single.close();
    }
  });

  it('invoiceDate range in createdAt order: the range is sorted on the date index alone, and only the page is read whole', async () => {
    const query = base({ dateFrom: middle, dateTo: middle + 7 * DAY });
    const [page, total] = await store.invoiceLists.compile(BIG, query);
    // The total's days are an index range within each currency (the rollups' key puts currency before the
    // day): a range on the day alone reads every day the business has.
    const dayReads = (await scansOf(total!)).filter(
      (scan) => scan.table === 'invoice_rollups' && /bucket/.test(scan.cond ?? ''),
    );
    expect(dayReads.length).toBeGreaterThan(0);
    for (const read of dayReads) expect(read.cond, JSON.stringify(read)).toMatch(/currency = /);
    const scans = await scansOf(page!);
    const shown = JSON.stringify(scans);
    // Migration 033: created_at and the id in invoices_business_date. Before it, each invoice of the range
    // (about 6,700 at 1,000,000) was read whole to be sorted.
    expect(
      scans.filter((scan) => scan.type === 'Index Only Scan' && scan.index === 'invoices_business_date'),
      shown,
    ).toHaveLength(1);
    expect(
      scans.filter((scan) => scan.type !== 'Index Only Scan').map((scan) => scan.index),
      shown,
    ).toEqual(['invoices_pkey']);
  });
});
