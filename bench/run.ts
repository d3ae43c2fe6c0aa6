/**
 * npm run bench: the built server (production mode, one process) on the embedded store and, when
 * reachable, on PostgreSQL, loaded by wrk (bench/wrk.ts); each scenario timed in paired rounds with its
 * anchors and the 200-byte baseline (bench/rounds.ts), and judged against issue 22's targets
 * (bench/targets.ts). Writes bench/results/latest.json (BENCH_OUT to write elsewhere).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname } from 'node:path';
import { recordAnswer, startAnswerAnchors, startBaseline, startDriver, type Target } from './anchors.js';
import { median, pairedRounds, share, summarize, type Settings, type Summary } from './rounds.js';
import { fiveHundredItemsPdf, invoiceScenarios, INVOICE_SCENARIOS, operatorToken, seedInvoices } from './invoices.js';
import { invoiceScaleScenarios, seedInvoiceScale } from './invoices-scale.js';
import { pdfStall, type PdfStall } from './pdf-stall.js';
import { seedBench, seedClients, type Seeded } from './seed.js';
import { scenarios } from './server.js';
import {
  freshPostgres,
  postgresBackends,
  rssMb,
  settlePostgres,
  startServer,
  DATABASE_URL,
  type Server,
  type Store,
} from './stores.js';
import {
  INVOICE_SCALE_P99_MS,
  PDF_STALL_SCENARIO,
  PLANS,
  RSS_LIMIT_MB,
  SCALE_LOSS,
  checks,
  relativeCheck,
  wantedScenarios,
  type AnchorFigures,
  type Check,
} from './targets.js';
import type { LoadSpec } from './wrk.js';
import {
  clientCount,
  drainRate,
  hookedBusiness,
  HOOKED_SCENARIO,
  startReceiver,
  type Delivery,
  type Receiver,
} from './webhooks.js';

const quick = process.argv.includes('--quick');
const env = (name: string, normal: number, short: number) => Number(process.env[name] ?? (quick ? short : normal));
const SETTINGS: Settings = {
  rounds: env('BENCH_ROUNDS', 5, 1),
  seconds: env('BENCH_DURATION', 4, 2),
  warmupSeconds: env('BENCH_WARMUP', 2, 1),
  connections: 50,
};
const CLIENTS = env('BENCH_CLIENTS', 10_000, 1000);
const SCALE = Number(process.env.BENCH_SCALE ?? 0);
/** BENCH_INVOICE_SCALE=N: on PostgreSQL, N invoices more in the business, then the finds and a sync page (bench/invoices-scale.ts). */
const INVOICE_SCALE = Number(process.env.BENCH_INVOICE_SCALE ?? 0);
const WANTED = wantedScenarios(process.env.BENCH_SCENARIOS);
const STORES = (process.env.BENCH_STORES?.split(',').map((s) => s.trim()) ?? ['sqlite', 'postgres']) as Store[];
const OUT =
  process.env.BENCH_OUT ??
  (SCALE > CLIENTS
    ? `bench/results/scale-${SCALE}.json`
    : INVOICE_SCALE > 0
      ? `bench/results/invoice-scale-${INVOICE_SCALE}.json`
      : 'bench/results/latest.json');

interface Row {
  /** `measured`: a scenario without targets (the leads'). */
  store: Store;
  scenario: string;
  storedClients: number;
  status: 'pass' | 'miss' | 'measured' | 'FAILED';
  baselineRequestsPerSecond?: number;
  crmkit?: Summary;
  anchors?: AnchorFigures[];
  checks: Check[];
  error?: string;
  /** The RSS row: its anonymous and file-backed parts (SQLite's memory-mapped file counts in RSS). */
  memoryMb?: { anon: number; file: number };
  /** The webhook deliveries row: one delivering instance draining the backlog of the webhook scenario. */
  delivery?: Delivery;
  /** The 500-item PDF row (bench/pdf-stall.ts). */
  pdfStall?: PdfStall;
}

const f2 = (n: number) => n.toFixed(2);
const list = (values: number[]) => `[${values.map(f2).join(' ')}]`;
const cpu = (s: Summary) =>
  `CPU/answer ${s.serverCpuUs} µs${s.databaseCpuUs !== undefined ? ` + PostgreSQL ${s.databaseCpuUs} µs` : ''}`;

function print(row: Row): void {
  if (!row.crmkit) {
    console.log(`  ${row.scenario.padEnd(28)} FAILED: ${row.error}`);
    return;
  }
  const c = row.crmkit;
  console.log(
    `  ${row.scenario.padEnd(28)} ${String(c.requestsPerSecond).padStart(6)} req/s  ${f2(c.toBaseline)} of baseline ${list(c.toBaselineRounds)}  p50 ${c.p50} ms  p99 ${c.p99} ms  ${cpu(c)}`,
  );
  for (const a of row.anchors ?? []) {
    console.log(
      `    anchor ${a.name}: ${a.requestsPerSecond} req/s, ${f2(a.toBaseline)} of baseline; crmkit over it ${f2(a.crmkitOver)} ${list(a.crmkitOverRounds)}  ${cpu(a)}`,
    );
  }
  for (const k of row.checks) console.log(`    ${k.pass ? 'pass' : 'MISS'}  ${k.target}: ${k.value}`);
  if (row.status === 'measured')
    console.log("    no target (issue 21 sets none): see it beside the clients' figures below");
}

/** Each leads' scenario beside the clients' scenario its plan names, both of this store's run. */
function printBeside(rows: Row[]): void {
  const pairs = rows.flatMap((row) => {
    const other = rows.find((r) => r.scenario === PLANS[row.scenario]?.beside);
    return row.crmkit && other?.crmkit ? [[row.scenario, row.crmkit, other.scenario, other.crmkit] as const] : [];
  });
  if (pairs.length > 0) console.log('  leads beside clients (req/s, share of baseline, p99):');
  for (const [leadName, lead, name, client] of pairs) {
    const lines = (s: Summary) => `${s.requestsPerSecond} req/s ${f2(s.toBaseline)} p99 ${s.p99} ms`;
    console.log(
      `    ${leadName.padEnd(28)} ${lines(lead)}  beside ${name}: ${lines(client)}  (${f2(lead.toBaseline / client.toBaseline)}×)`,
    );
  }
}

/** One scenario in paired rounds with its anchors; a failure (wrong answer, non-2xx, socket error) is its row's FAILED. */
async function scenario(
  store: Store,
  name: string,
  spec: LoadSpec,
  server: Server,
  driver: { read: Target; insert: Target },
  baseline: Target,
  storedClients: number,
  unhooked?: LoadSpec,
): Promise<Row> {
  const crmkit: Target = { name: 'crmkit', pid: server.pid, spec, stop: async () => undefined, usesDatabase: true };
  const kind = PLANS[name]!.anchors;
  let started: Target[] = [];
  try {
    if (kind === 'answer')
      started = await startAnswerAnchors(await recordAnswer(spec), spec, '/api/v1/businesses/:urlKey/pipelines');
    const sameServer = (label: string, other: LoadSpec): Target => ({ ...crmkit, name: label, spec: other });
    const anchors =
      kind === 'answer' || kind === 'none'
        ? started
        : kind === 'no endpoint'
          ? [sameServer('POST new client, no endpoint', unhooked!)]
          : [driver[kind]];
    const rounds = await pairedRounds(
      baseline,
      [crmkit, ...anchors],
      SETTINGS,
      store === 'postgres' ? postgresBackends : undefined,
    );
    const summary = summarize('crmkit', rounds, 0);
    const anchorFigures = anchors.map((a, i) => {
      const over = share(rounds, 0, i + 1);
      return { ...summarize(a.name, rounds, i + 1), crmkitOver: over.median, crmkitOverRounds: over.rounds };
    });
    const verdicts = checks(name, summary, anchorFigures);
    const baselines = rounds.map((r) => r.baseline).sort((a, b) => a - b);
    return {
      store,
      scenario: name,
      storedClients,
      status: verdicts.length === 0 ? 'measured' : verdicts.every((k) => k.pass) ? 'pass' : 'miss',
      baselineRequestsPerSecond: Math.round(baselines[baselines.length >> 1]!),
      crmkit: summary,
      anchors: anchorFigures,
      checks: verdicts,
    };
  } catch (error) {
    return { store, scenario: name, storedClients, status: 'FAILED', checks: [], error: (error as Error).message };
  } finally {
    for (const anchor of started) await anchor.stop();
  }
}

/** The webhook scenario's second figure: a delivering instance drains the events its creates left. */
async function deliveries(
  store: Store,
  server: Server,
  receiver: Receiver,
  urlKey: string,
  rows: Row[],
): Promise<void> {
  const backlog = await clientCount(server.url, urlKey);
  const delivery = await drainRate(receiver, backlog, () =>
    startServer(store, { env: { WEBHOOKS_ALLOW_PRIVATE: 'true' }, dataDir: server.dataDir }),
  );
  const complete = delivery.delivered >= backlog;
  rows.push({
    store,
    scenario: 'webhook deliveries/s',
    storedClients: CLIENTS,
    status: complete ? 'measured' : 'FAILED',
    checks: [],
    delivery,
    ...(!complete && { error: `${delivery.delivered} of ${backlog} events arrived` }),
  });
  console.log(
    `  webhook deliveries/s         ${delivery.deliveriesPerSecond} (one delivering instance: ${delivery.delivered} of ${backlog} client.created events in ${delivery.seconds} s${complete ? '' : '; FAILED: not all arrived'})`,
  );
}

async function runStore(store: Store, baseline: Target, rows: Row[]): Promise<void> {
  // Writes webhook events, delivers none: the webhook scenario times the outbox's write alone, and a
  // second process delivers afterwards (bench/webhooks.ts).
  const server = await startServer(store, { env: { WEBHOOKS_DELIVER: 'false', WEBHOOKS_ALLOW_PRIVATE: 'true' } });
  let driver: { read: Target; insert: Target } | undefined;
  let receiver: Receiver | undefined;
  try {
    const started = Date.now();
    const seeded = await seedBench(server.url, CLIENTS);
    if (WANTED.includes(HOOKED_SCENARIO)) {
      receiver = await startReceiver();
      seeded.hookedUrlKey = await hookedBusiness(server.url, seeded, receiver.url);
    }
    const invoices = WANTED.some((name) => INVOICE_SCENARIOS.includes(name as never) || name === PDF_STALL_SCENARIO)
      ? await seedInvoices(server.url, seeded, await operatorToken(server.url))
      : undefined;
    driver = await startDriver(store, DATABASE_URL, CLIENTS);
    if (store === 'postgres') await settlePostgres();
    console.log(
      `\n== ${store}: ${CLIENTS} clients seeded (and ${CLIENTS} bare-driver rows) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    const first = new Map<string, number>();
    const all = [...scenarios(seeded, server.url), ...(invoices ? invoiceScenarios(seeded, invoices, server.url) : [])];
    const plainCreate = all.find(([name]) => name === 'POST new client')![1];
    for (const [name, spec] of all) {
      if (!WANTED.includes(name) || name === HOOKED_SCENARIO) continue;
      const row = await scenario(store, name, spec, server, driver, baseline, CLIENTS);
      if (row.crmkit) first.set(name, row.crmkit.toBaseline);
      rows.push(row);
      print(row);
    }
    printBeside(rows.filter((r) => r.store === store));
    relate(rows.filter((r) => r.store === store));
    if (invoices && WANTED.includes(PDF_STALL_SCENARIO)) {
      const getClient = all.find(([name]) => name === 'GET client')![1];
      rows.push(await stallRow(store, getClient, fiveHundredItemsPdf(seeded, invoices, server.url)));
    }
    if (invoices && INVOICE_SCALE > 0 && store === 'postgres')
      await invoiceScale(seeded, invoices, server, baseline, rows);
    if (SCALE > CLIENTS) await scaleCheck(store, server, seeded, driver, baseline, first, rows);
    const { rss, anon, file } = rssMb(server.pid);
    const memory = { target: `server RSS ≤ ${RSS_LIMIT_MB} MB after the run`, value: rss, pass: rss <= RSS_LIMIT_MB };
    rows.push({
      store,
      scenario: 'server RSS MB',
      storedClients: CLIENTS,
      status: memory.pass ? 'pass' : 'miss',
      checks: [memory],
      memoryMb: { anon, file },
    });
    console.log(
      `  ${memory.pass ? 'pass' : 'MISS'}  ${memory.target}: ${rss} MB (anonymous ${anon} MB, file-backed ${file} MB)`,
    );
    // Last, after the memory reading: its creates (and their events) grow the store several times over
    // (176,000 clients and events in a 5-round run), and the embedded store's memory map counts the
    // pages it touched in RSS (607 MB, 509 of them file-backed, when it ran before the reading).
    const hooked = all.find(([name]) => name === HOOKED_SCENARIO);
    if (hooked && WANTED.includes(HOOKED_SCENARIO)) {
      const unhooked = { ...plainCreate, unique: { ...plainCreate.unique!, prefix: `unhooked-${Date.now()}` } };
      const row = await scenario(store, HOOKED_SCENARIO, hooked[1], server, driver, baseline, CLIENTS, unhooked);
      rows.push(row);
      print(row);
      if (row.crmkit) await deliveries(store, server, receiver!, seeded.hookedUrlKey!, rows);
    }
  } finally {
    await server.stop();
    await driver?.read.stop();
    await receiver?.target.stop();
  }
}

/** The checks of scenarios set against another of the same run (POST invoice against POST new client…). */
function relate(rows: Row[]): void {
  for (const row of rows) {
    const other = rows.find((r) => r.scenario === PLANS[row.scenario]?.relative?.scenario)?.crmkit;
    const verdict = row.crmkit && relativeCheck(row.scenario, row.crmkit, other);
    if (!verdict) continue;
    row.checks.push(verdict);
    if (!verdict.pass && row.status === 'pass') row.status = 'miss';
    console.log(`  ${row.scenario.padEnd(28)} ${verdict.pass ? 'pass' : 'MISS'}  ${verdict.target}: ${verdict.value}`);
  }
}

async function stallRow(store: Store, getClient: LoadSpec, bigPdf: LoadSpec): Promise<Row> {
  const base = { store, scenario: PDF_STALL_SCENARIO, storedClients: CLIENTS };
  try {
    const stall = await pdfStall(getClient, bigPdf, SETTINGS);
    console.log(
      `  ${PDF_STALL_SCENARIO}: GET client p99 ${stall.getClientP99AloneMs} ms alone, ${stall.getClientP99DuringMs} ms beside them (delay ${stall.delayMs} ms ${list(stall.delayRounds)}); 500-item PDF p50 ${stall.bigPdfP50Ms} ms, slowest ${stall.bigPdfMaxMs} ms (${stall.bigPdfsRendered} alone)`,
    );
    for (const k of stall.checks) console.log(`    ${k.pass ? 'pass' : 'MISS'}  ${k.target}: ${k.value}`);
    return {
      ...base,
      status: stall.checks.every((k) => k.pass) ? 'pass' : 'miss',
      checks: stall.checks,
      pdfStall: stall,
    };
  } catch (error) {
    console.log(`  ${PDF_STALL_SCENARIO.padEnd(28)} FAILED: ${(error as Error).message}`);
    return { ...base, status: 'FAILED', checks: [], error: (error as Error).message };
  }
}

/** BENCH_INVOICE_SCALE=N (PostgreSQL): N invoices more, then each find's first page and a sync page, p99 ≤ INVOICE_SCALE_P99_MS. */
async function invoiceScale(
  seeded: Seeded,
  invoices: Awaited<ReturnType<typeof seedInvoices>>,
  server: Server,
  baseline: Target,
  rows: Row[],
): Promise<void> {
  const seconds = await seedInvoiceScale(DATABASE_URL, seeded, invoices, INVOICE_SCALE);
  const started = Date.now();
  await settlePostgres();
  console.log(
    `  -- ${INVOICE_SCALE} invoices written in ${seconds.toFixed(1)} s, vacuumed and checkpointed in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  for (const [name, spec] of invoiceScaleScenarios(seeded, server.url, INVOICE_SCALE)) {
    const crmkit: Target = { name: 'crmkit', pid: server.pid, spec, stop: async () => undefined, usesDatabase: true };
    const row: Row = { store: 'postgres', scenario: name, storedClients: CLIENTS, status: 'pass', checks: [] };
    try {
      const rounds = await pairedRounds(baseline, [crmkit], SETTINGS, postgresBackends);
      row.crmkit = summarize('crmkit', rounds, 0);
      row.baselineRequestsPerSecond = Math.round(median(rounds.map((r) => r.baseline)));
      const p99 = row.crmkit.p99;
      row.checks.push({ target: `p99 ≤ ${INVOICE_SCALE_P99_MS} ms`, value: p99, pass: p99 <= INVOICE_SCALE_P99_MS });
      if (p99 > INVOICE_SCALE_P99_MS) row.status = 'miss';
    } catch (error) {
      Object.assign(row, { status: 'FAILED', error: (error as Error).message });
    }
    rows.push(row);
    print(row);
  }
}

/** BENCH_SCALE=N: N stored clients, then GET client and POST new client again, each within SCALE_LOSS of its first figure. */
async function scaleCheck(
  store: Store,
  server: Server,
  seeded: Seeded,
  driver: { read: Target; insert: Target },
  baseline: Target,
  first: Map<string, number>,
  rows: Row[],
): Promise<void> {
  const started = Date.now();
  const more = await seedClients(server.url, seeded.urlKey, seeded.issued, SCALE - CLIENTS);
  // As after the first seed: autovacuum of the new rows would otherwise run in the rounds below. In
  // the second 1,000,000-client run of 2026-11-25, made without this, the bare-driver anchors (whose
  // table does not grow) cost 30-40% more CPU per request after the seed than before it.
  if (store === 'postgres') await settlePostgres();
  console.log(
    `  -- seeded ${more.length} more clients (${SCALE} in all) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  for (const [name, spec] of scenarios({ ...seeded, clientIds: [...seeded.clientIds, ...more] }, server.url)) {
    if (name !== 'GET client' && name !== 'POST new client') continue;
    const row = await scenario(store, name, spec, server, driver, baseline, SCALE);
    const earlier = first.get(name);
    if (row.crmkit && earlier !== undefined) {
      const change = row.crmkit.toBaseline / earlier - 1;
      row.checks.push({
        target: `within ${SCALE_LOSS * 100}% of the figure at ${CLIENTS} clients`,
        value: Math.round(change * 1000) / 1000,
        pass: change >= -SCALE_LOSS,
      });
      if (change < -SCALE_LOSS) row.status = 'miss';
    }
    row.scenario = `${name} @${SCALE}`;
    rows.push(row);
    print(row);
  }
}

async function main(): Promise<void> {
  const loadBefore = loadavg();
  console.log(
    `crmkit bench: wrk, 1 thread, ${SETTINGS.connections} connections; ${SETTINGS.rounds} paired round(s) of ${SETTINGS.seconds} s (warm-up ${SETTINGS.warmupSeconds} s); ${CLIENTS} stored clients; ${cpus().length} cores, load average ${loadBefore.map(f2).join(' ')}`,
  );
  console.log(
    'figures: medians of the rounds; "of baseline" = req/s over the mean of the 200-byte node:http baseline runs on both sides of the round; "crmkit over it" = paired, round by round',
  );
  const baseline = await startBaseline();
  const rows: Row[] = [];
  try {
    for (const store of STORES) {
      if (store !== 'sqlite' && store !== 'postgres') throw new Error(`BENCH_STORES: unknown store ${store as string}`);
      if (store === 'postgres' && !(await freshPostgres()))
        console.log(`\nPostgreSQL unreachable at ${DATABASE_URL}: its half of the bench is skipped.`);
      else await runStore(store, baseline, rows);
    }
  } finally {
    await baseline.stop();
  }
  mkdirSync(dirname(OUT), { recursive: true });
  const machine = {
    cores: cpus().length,
    node: process.version,
    loadAverageBefore: loadBefore,
    loadAverageAfter: loadavg(),
  };
  writeFileSync(
    OUT,
    `${JSON.stringify({ date: new Date().toISOString(), machine, loadGenerator: 'wrk -t1', ...SETTINGS, storedClients: CLIENTS, rows }, null, 2)}\n`,
  );
  const failed = rows.filter((r) => r.status === 'FAILED').length;
  const missed = rows.filter((r) => r.status === 'miss').length;
  console.log(
    `\nwritten ${OUT}; load average now ${loadavg().map(f2).join(' ')}; ${failed} failed scenario(s), ${missed} missing a target`,
  );
  process.exit(failed > 0 ? 1 : 0);
}

await main();
