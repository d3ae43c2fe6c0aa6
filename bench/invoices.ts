/**
 * The invoices' scenarios in `npm run bench` (issue 36 item 7, issue 37 item 6), run with the clients'
 * on the same server: POST invoice (3 items, intra-state), GET invoice, find first page, POST payment, and
 * the PDF of a 10-item invoice. Seeded through the API like the clients: invoice settings (seller in
 * gstState 29), OPEN_INVOICES invoices for one of the seeded clients (a buyer in 29 too) whose totals
 * leave room for millions of 1-rupee payments, and one invoice of 10 and one of 500 items for the PDFs.
 */
import type { Seeded } from './seed.js';
import type { LoadSpec } from './wrk.js';

export const INVOICE_SCENARIOS = [
  'POST invoice',
  'GET invoice',
  'find invoices (first page)',
  'POST payment',
  'GET invoice PDF (10 items)',
] as const;

/**
 * The PDF scenario's connections. A pool of renders is not a queue of 50: by Little's law, 50 requests
 * in flight at 100 PDFs/s wait 500 ms each whatever the renderer does, so p99 ≤ 50 ms at ≥ 100/s means
 * at most a few in flight. Four: one waiting per worker thread on this 2-core machine.
 */
export const PDF_CONNECTIONS = 4;
const OPEN_INVOICES = 1000;

export interface InvoiceSeed {
  invoiceIds: string[];
  tenItemsId: string;
  fiveHundredItemsId: string;
}

async function call(url: string, method: string, path: string, token: string, body?: unknown): Promise<any> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const json = await response.json().catch(() => undefined);
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** Three items at 18%, 12% and 5%: CGST and SGST, seller and buyer both in Karnataka (29). */
export const threeItems = () => [
  { name: 'Consulting hours', hsn: '998311', rate: 1500, quantity: 4, gstRate: 18 },
  { name: 'Printed manual', hsn: '4901', rate: 249.5, quantity: 2, gstRate: 12 },
  { name: 'Packaging', hsn: '4819', rate: 35.25, quantity: 3, gstRate: 5 },
];

/** A buyer: one of the seeded clients, placed in 29 for this invoice (the client record has no state). */
const billedTo = (clientId: string) => ({ clientId, gstState: '29' });

const itemsOf = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    name: i % 50 === 7 ? `Item ${i + 1}: annual support contract with installation and training` : `Item ${i + 1}`,
    hsn: '8471',
    // Paise as a two-decimal number (toFixed's shortest form): never a float's tail such as 12.340000000000002.
    rate: Number((((i * 3_719) % 90_000) / 100 + 1.5).toFixed(2)),
    quantity: (i % 7) + 1,
    gstRate: 18,
  }));

export async function seedInvoices(url: string, s: Seeded, admin: string): Promise<InvoiceSeed> {
  await call(url, 'PUT', `/admin/v1/businesses/${s.urlKey}/invoice-settings`, admin, {
    billedBy: { gstState: '29', gstin: '29AAPFU0939F1ZV' },
    numbering: {},
    defaultTerms: [],
  });
  const invoices = `/api/v1/businesses/${s.urlKey}/invoices`;
  const create = async (items: unknown[], n: number) =>
    (
      await call(url, 'POST', invoices, s.issued, {
        invoiceNumber: `SEED-${n}`,
        billedTo: billedTo(s.clientIds[n % s.clientIds.length]!),
        items,
      })
    )._id as string;
  const invoiceIds: string[] = [];
  let next = 0;
  // 10,000 × 100 at 18%: 11,80,000 rupees each, room for that many 1-rupee payments.
  const big = [{ name: 'Annual licence', rate: 100_000, quantity: 10, gstRate: 18 }];
  const worker = async () => {
    while (next < OPEN_INVOICES) invoiceIds.push(await create(big, next++));
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return {
    invoiceIds,
    tenItemsId: await create(itemsOf(10), OPEN_INVOICES),
    fiveHundredItemsId: await create(itemsOf(500), OPEN_INVOICES + 1),
  };
}

/** The operator's session, which the invoice settings need (seedBench signs the app in, not the operator). */
export async function operatorToken(url: string): Promise<string> {
  const response = await fetch(`${url}/authentication`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ strategy: 'local', email: 'bench@crmkit.local', password: 'bench-password-123' }),
  });
  return ((await response.json()) as { accessToken: string }).accessToken;
}

export function invoiceScenarios(s: Seeded, i: InvoiceSeed, url: string): [string, LoadSpec][] {
  const get = { authorization: `Bearer ${s.issued}` };
  const post = { ...get, 'content-type': 'application/json' };
  const invoices = `/api/v1/businesses/${s.urlKey}/invoices`;
  const paths = i.invoiceIds.map((id) => `${invoices}/${id}`);
  // A number never sent before in each request: every request a new invoice, never an idempotent retry.
  const [head, tail] = JSON.stringify({
    invoiceNumber: '@ID@',
    billedTo: billedTo(s.clientIds[0]!),
    items: threeItems(),
  }).split('@ID@') as [string, string];
  return [
    [
      'POST invoice',
      {
        url,
        method: 'POST',
        path: invoices,
        headers: post,
        unique: { head, tail, prefix: `B${Date.now().toString(36)}` },
        refuse: '"idempotent":true',
        expect: { status: 201, text: '"cgst"' },
      },
    ],
    [
      'GET invoice',
      { url, method: 'GET', path: paths[0]!, paths, headers: get, expect: { status: 200, text: '"_id"' } },
    ],
    [
      'find invoices (first page)',
      { url, method: 'GET', path: invoices, headers: get, expect: { status: 200, text: '"total":' } },
    ],
    [
      'POST payment',
      {
        url,
        method: 'POST',
        path: `${paths[0]}/payments`,
        paths: paths.map((p) => `${p}/payments`),
        headers: post,
        body: JSON.stringify({ amount: 1, paymentMethod: 'UPI' }),
        expect: { status: 201, text: '"payerBusiness"' },
      },
    ],
    [
      'GET invoice PDF (10 items)',
      {
        url,
        method: 'GET',
        path: `${invoices}/${i.tenItemsId}/pdf`,
        headers: get,
        connections: PDF_CONNECTIONS,
        expect: { status: 200, text: '%PDF-' },
      },
    ],
  ];
}

/** The 500-item PDF, one request at a time (the stall check and its own latency). */
export const fiveHundredItemsPdf = (s: Seeded, i: InvoiceSeed, url: string): LoadSpec => ({
  url,
  method: 'GET',
  path: `/api/v1/businesses/${s.urlKey}/invoices/${i.fiveHundredItemsId}/pdf`,
  headers: { authorization: `Bearer ${s.issued}` },
  connections: 1,
  expect: { status: 200, text: '%PDF-' },
});
