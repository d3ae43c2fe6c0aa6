// What POST invoice, GET invoice and POST payment cost beside POST new client and GET client, in-process
// (docs/performance.md "Invoices and their PDFs", "POST payment: where its CPU went"):
// the bench's create (3 items, intra-state, a given number, a named client) and read, 50 at a time as
// wrk's connections arrive, through `app.inject` on a fresh store, against another build of `src`
// (extracted into .bench-before/src); a payment is the bench's (1 rupee, UPI) on one of the invoices made, at
// random. Per request: this process's CPU (server and inject, µs; user and system apart: SQLite's fsyncs are
// system time) and, on PostgreSQL, the CPU of the database's backends (µs, from /proc). Alternate the builds:
//   git archive <before> src | tar -x -C .bench-before
//   INVOICE_COST_SRC=.bench-before/src npx tsx bench/experiments/invoice-create-cost.ts
//   INVOICE_COST_PG=postgres://postgres@127.0.0.1:5432/postgres (PostgreSQL, a database of its own made
//   and dropped, named by INVOICE_COST_DATABASE; else SQLite in a temporary folder);
//   INVOICE_COST_COUNT=1000 requests a round
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { cpuByProcess } from '../server.js';

const COUNT = Number(process.env.INVOICE_COST_COUNT ?? 1000);
const SRC = resolve(process.env.INVOICE_COST_SRC ?? 'src');
const ADMIN_URL = process.env.INVOICE_COST_PG;
const load = (path: string) => import(pathToFileURL(`${SRC}/${path}`).href);
const ITEMS = [
  { name: 'Consulting hours', hsn: '998311', rate: 1500, quantity: 4, gstRate: 18 },
  { name: 'Printed manual', hsn: '4901', rate: 249.5, quantity: 2, gstRate: 12 },
  { name: 'Packaging', hsn: '4819', rate: 35.25, quantity: 3, gstRate: 5 },
];

async function backendCpu(client: pg.Client | null): Promise<number> {
  if (!client) return 0;
  const { rows } = await client.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
  return [...cpuByProcess(rows.map((r) => r.pid)).values()].reduce((a, b) => a + b, 0);
}

async function main(): Promise<void> {
  const database = process.env.INVOICE_COST_DATABASE ?? `invoice_cost_${process.pid}`;
  const admin = ADMIN_URL ? new pg.Client({ connectionString: ADMIN_URL }) : null;
  await admin?.connect();
  await admin?.query(`create database ${database}`);
  const databaseUrl = ADMIN_URL ? ADMIN_URL.replace(/\/[^/]*$/, `/${database}`) : null;
  const [{ testConfig }, { openStore }, { buildApp }, { systemClock }, { OperatorsService }] = await Promise.all([
    load('config.ts'),
    load('storage/store.ts'),
    load('app.ts'),
    load('deps.ts'),
    load('operator/operators.service.ts'),
  ]);
  const config = testConfig({
    databaseUrl,
    databaseDirectUrl: databaseUrl,
    dataDir: mkdtempSync(join(tmpdir(), 'invoice-cost-')),
    port: 0,
    webhooksDeliver: false,
  });
  const store = openStore(config);
  try {
    await store.migrate();
    await new OperatorsService(store, systemClock.now, config.passwordHashCost).ensureFirstOperator(
      'bench@example.com',
      'bench-password-1',
    );
    const app = await buildApp({ config, store, clock: systemClock });
    await app.ready();
    const call = async (method: string, url: string, token: string | null, payload?: unknown) => {
      const r = await app.inject({
        method: method as 'GET',
        url,
        headers: token ? { authorization: `Bearer ${token}` } : {},
        ...(payload !== undefined && { payload: payload as object }),
      });
      if (r.statusCode >= 300) throw new Error(`${method} ${url}: ${r.statusCode} ${r.body}`);
      return r.json();
    };
    const login = { strategy: 'local', email: 'bench@example.com', password: 'bench-password-1' };
    const operator = (await call('POST', '/authentication', null, login)).accessToken as string;
    await call('POST', '/admin/v1/businesses', operator, { name: 'Bench', country: 'IN', urlKey: 'bench' });
    await call('PUT', '/admin/v1/businesses/bench/invoice-settings', operator, {
      billedBy: { gstState: '29', gstin: '29AAPFU0939F1ZV' },
      numbering: {},
      defaultTerms: [],
    });
    const made = (await call('POST', '/admin/v1/apps', operator, { name: 'cost' })).data;
    await call('PUT', `/admin/v1/apps/${made.appId}/businesses/bench`, operator);
    const secret = { strategy: 'app-secret', appId: made.appId, appSecret: made.appSecret };
    const token = (await call('POST', '/authentication', null, secret)).accessToken as string;
    await call('POST', '/api/v1/businesses/bench/clients', token, { clientId: 'c1', name: 'Client One' });
    const invoices = '/api/v1/businesses/bench/invoices';
    const watcher = databaseUrl ? new pg.Client({ connectionString: databaseUrl }) : null;
    await watcher?.connect();
    const ids: string[] = [];
    let n = 0;
    const create = async () => {
      const body = { invoiceNumber: `C-${n++}`, billedTo: { clientId: 'c1', gstState: '29' }, items: ITEMS };
      ids.push((await call('POST', invoices, token, body))._id as string);
    };
    const read = async () => void (await call('GET', `${invoices}/${ids[n++ % ids.length]}`, token));
    const timed = async (label: string, request: () => Promise<void>) => {
      for (let i = 0; i < 100; i += 50) await Promise.all(Array.from({ length: 50 }, request));
      const cpu = process.cpuUsage();
      const databaseBefore = await backendCpu(watcher);
      const start = Date.now();
      for (let i = 0; i < COUNT; i += 50) await Promise.all(Array.from({ length: 50 }, request));
      const used = process.cpuUsage(cpu);
      const databaseCpu = (await backendCpu(watcher)) - databaseBefore;
      const per = (us: number) => (us / COUNT).toFixed(0);
      console.log(
        `${label}: ${COUNT} in ${Date.now() - start} ms; CPU per request: this process ${per(used.user + used.system)} µs (user ${per(used.user)}, system ${per(used.system)})${watcher ? `, database ${per(databaseCpu)} µs` : ''}`,
      );
    };
    // The clients' two, the anchors of the invoice targets (issue 36 item 7), the same way.
    const clients = '/api/v1/businesses/bench/clients';
    let m = 0;
    const createClient = async () =>
      void (await call('POST', clients, token, { clientId: `k-${m++}`, name: 'Bench Client', email: 'b@example.com' }));
    const readClient = async () => void (await call('GET', `${clients}/k-${m++ % COUNT}`, token));
    await timed('POST new client', createClient);
    await timed('POST invoice', create);
    m = 0;
    await timed('GET client', readClient);
    n = 0;
    await timed('GET invoice', read);
    const pay = async () =>
      void (await call('POST', `${invoices}/${ids[Math.floor(Math.random() * ids.length)]}/payments`, token, {
        amount: 1,
        paymentMethod: 'UPI',
      }));
    await timed('POST payment', pay);
    await watcher?.end();
    await app.close();
  } finally {
    await store.close();
    await admin?.query(`drop database ${database}`);
    await admin?.end();
  }
}

await main();
