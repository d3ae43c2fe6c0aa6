/**
 * Invoices in bulk for the 1,000,000-invoice check (bench/invoices-scale.ts) and the plan test
 * (test/storage/invoices.plans.test.ts): rows written by PostgreSQL itself with `generate_series`, in
 * batches of BATCH (one transaction each, as many writes would leave them), never through the API.
 *
 * Each row is a copy of a template invoice's documents (`content`, `create_request`: an invoice the API
 * made, or `{}` where only plans matter) with its own _id, number, client, status and dates:
 * - _id and share token from md5 of the row's prefix and number (unique, 24 and 64 hex characters);
 * - number `<prefix>-<n, 7 digits>`; client `<prefix>-client-<n mod CLIENTS>` (about 200 invoices each
 *   at 1,000,000);
 * - status by n mod 10: 0 CANCELED, 1-3 PAID, 4 PARTIALLY_PAID, else UNPAID;
 * - createdAt one every STEP_MS from START_MS on (1,000,000 span 2.85 years), updatedAt the same,
 *   invoiceDate its day.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/storage/schema.js';

export const VOLUME_CLIENTS = 5000;
export const START_MS = Date.UTC(2023, 0, 1);
export const STEP_MS = 90_000;
const BATCH = 100_000;
const DAY_MS = 86_400_000;

export interface VolumeOptions {
  /** Numbers 1..count, in `prefix`'s own series (ids, numbers and clients all carry the prefix). */
  count: number;
  prefix: string;
  /** The invoice whose documents every row copies (by _id); none: `{}`. */
  templateInvoiceId?: string;
  /** Called after each batch with the rows written so far. */
  progress?: (written: number) => void;
}

export const volumeNumber = (prefix: string, n: number) => `${prefix}-${String(n).padStart(7, '0')}`;
export const volumeClient = (prefix: string, n: number) => `${prefix}-client-${n % VOLUME_CLIENTS}`;
export const volumeCreatedAt = (n: number) => START_MS + n * STEP_MS;

export async function insertInvoiceVolume(db: Kysely<Database>, urlKey: string, options: VolumeOptions): Promise<void> {
  const { count, prefix } = options;
  const template = options.templateInvoiceId
    ? sql`(select content, create_request, currency, total_minor from invoices where invoice_id = ${options.templateInvoiceId})`
    : sql`(select '{}'::text as content, '{}'::text as create_request, 'INR'::text as currency, 118000::bigint as total_minor)`;
  for (let from = 1; from <= count; from += BATCH) {
    const to = Math.min(count, from + BATCH - 1);
    await sql`insert into invoices (business_pk, invoice_id, invoice_number, client_id, status, currency,
        total_minor, paid_minor, invoice_date, share_token, content, create_request, created_at, updated_at)
      select b.id, substr(md5(${prefix} || g), 1, 24), ${prefix} || '-' || lpad(g::text, 7, '0'),
        ${prefix} || '-client-' || (g % ${VOLUME_CLIENTS}),
        case when g % 10 = 0 then 'CANCELED' when g % 10 between 1 and 3 then 'PAID'
             when g % 10 = 4 then 'PARTIALLY_PAID' else 'UNPAID' end,
        t.currency, t.total_minor,
        case when g % 10 between 1 and 3 then t.total_minor when g % 10 = 4 then t.total_minor / 2 else 0 end,
        (${START_MS}::bigint + g * ${STEP_MS}) / ${DAY_MS} * ${DAY_MS},
        md5('share' || ${prefix} || g) || md5('token' || ${prefix} || g),
        t.content, t.create_request,
        ${START_MS}::bigint + g * ${STEP_MS}, ${START_MS}::bigint + g * ${STEP_MS}
      from businesses b cross join ${template} t cross join generate_series(${from}::bigint, ${to}::bigint) g
      where b.url_key = ${urlKey}`.execute(db);
    options.progress?.(to);
  }
}
