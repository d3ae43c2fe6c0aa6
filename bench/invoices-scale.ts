/**
 * BENCH_INVOICE_SCALE=1000000 (PostgreSQL only; issue 36 item 7): after the store's scenarios, the
 * seeded business gets that many invoices more, written by PostgreSQL itself (bench/invoices-volume.ts,
 * copies of one invoice the API made), then vacuumed and checkpointed; each find's first page (the
 * default sort, each other sort, each filter of invoices-interface 4.3) and a sync page are timed, each
 * p99 ≤ INVOICE_SCALE_P99_MS.
 */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../src/storage/schema.js';
import type { InvoiceSeed } from './invoices.js';
import { insertInvoiceVolume, volumeClient, volumeCreatedAt, volumeNumber } from './invoices-volume.js';
import type { Seeded } from './seed.js';
import type { LoadSpec } from './wrk.js';

const PREFIX = 'scale';
const DAY_MS = 86_400_000;

/** Seeds `count` invoices into the run's business; answers the seconds it took. */
export async function seedInvoiceScale(
  databaseUrl: string,
  s: Seeded,
  invoices: InvoiceSeed,
  count: number,
): Promise<number> {
  const started = Date.now();
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl, max: 1 }) }),
  });
  try {
    await insertInvoiceVolume(db, s.urlKey, {
      count,
      prefix: PREFIX,
      templateInvoiceId: invoices.invoiceIds[0]!,
      progress: (written) => process.stdout.write(`\r  -- ${written} of ${count} invoices written`),
    });
    process.stdout.write('\n');
  } finally {
    await db.destroy();
  }
  return (Date.now() - started) / 1000;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The finds and the sync page, each with the answer its check expects. */
export function invoiceScaleScenarios(s: Seeded, url: string, count: number): [string, LoadSpec][] {
  const invoices = `/api/v1/businesses/${s.urlKey}/invoices`;
  const headers = { authorization: `Bearer ${s.issued}` };
  const middle = volumeCreatedAt(Math.floor(count / 2));
  const find = (name: string, query: string, text = '"total":'): [string, LoadSpec] => [
    `find invoices ${name} @${count}`,
    { url, method: 'GET', path: `${invoices}?${query}`, headers, expect: { status: 200, text } },
  ];
  const sort = (field: string, direction: number) => `${encodeURIComponent(`$sort[${field}]`)}=${direction}`;
  return [
    find('(default sort)', '$limit=10'),
    find('$sort[createdAt]=1', sort('createdAt', 1)),
    find('$sort[invoiceNumber]=-1', sort('invoiceNumber', -1)),
    find('$sort[invoiceDate]=-1', sort('invoiceDate', -1)),
    find('client', `client=${volumeClient(PREFIX, 42)}`),
    find('status', 'status=PARTIALLY_PAID'),
    find('invoiceNumber', `invoiceNumber=${volumeNumber(PREFIX, 424_242)}`, '"total":1,'),
    find(
      'invoiceDate (a week)',
      `${encodeURIComponent('invoiceDate[$gte]')}=${day(middle)}&${encodeURIComponent('invoiceDate[$lte]')}=${day(middle + 6 * DAY_MS)}`,
    ),
    find('sync page', `updatedAtFrom=${new Date(middle).toISOString()}`, '"nextCursor":"'),
  ];
}
