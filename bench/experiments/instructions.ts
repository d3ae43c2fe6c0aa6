/**
 * Instructions per request, counted by valgrind's callgrind: the same figure for the same build and
 * load whatever else the machine is doing, where CPU time per request moved by half from one round to
 * the next on 2026-11-23. For judging a change to the server's own work (user space only: the kernel's
 * share of a socket write is not counted).
 *
 * Each build named is started under callgrind on its own embedded store, seeded, and for each scenario
 * sent WARMUP requests (so that V8 has compiled the hot path), then its counters are zeroed and exactly
 * REQUESTS more are sent, 50 connections as in `npm run bench` (BENCH_CONNECTIONS). Name a build twice
 * to see how far one build's count moves between runs (batching and garbage collection vary).
 *
 *   git stash && npm run build && cp -r dist .bench-before && git stash pop && npm run build
 *   npx tsx bench/experiments/instructions.ts dist .bench-before -- "GET client" "GET pipelines (issued)"
 *
 * The invoices' scenarios of `npm run bench` (bench/invoices.ts: "GET invoice", "POST payment"…) run too
 * when named: the server is then seeded with the bench's invoices as well, and they run after the clients'
 * and leads' scenarios, as in the bench. BENCH_STORE=postgres runs each server on a fresh public schema of
 * BENCH_DATABASE_URL's database (as the bench's PostgreSQL half; emptied at each start), where only the
 * server's instructions are counted, not PostgreSQL's backends'.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../anchors.js';
import { invoiceScenarios, INVOICE_SCENARIOS, operatorToken, seedInvoices } from '../invoices.js';
import { seedBench } from '../seed.js';
import { DATABASE_URL, freshPostgres, settlePostgres } from '../stores.js';
import { DEFAULT_SCENARIOS, PLANS } from '../targets.js';
import { scenarios, serverEnv, waitFor } from '../server.js';
import { failed, runWrk, type LoadSpec } from '../wrk.js';
import { hookedBusiness, HOOKED_SCENARIO } from '../webhooks.js';

const split = process.argv.indexOf('--');
const builds = process.argv.slice(2, split < 0 ? undefined : split);
const wanted = split < 0 ? [] : process.argv.slice(split + 1);
if (builds.length === 0)
  throw new Error('usage: tsx bench/experiments/instructions.ts DIST [DIST ...] [-- scenario ...]');
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 500);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** BENCH_CALLGRIND_OUT=DIR keeps each scenario's counts there, for `callgrind_annotate` (native functions are named; JIT code is not). */
const OUT = process.env.BENCH_CALLGRIND_OUT;
const POSTGRES = process.env.BENCH_STORE === 'postgres';
if (!POSTGRES && (process.env.BENCH_STORE ?? 'sqlite') !== 'sqlite') throw new Error('BENCH_STORE: sqlite or postgres');
/**
 * Where valgrind and callgrind_control meet. Both name the pipe after $USER and $HOST, and the server's
 * HOST is its listen address: callgrind_control is given the same.
 */
const VGDB = ['--vgdb=yes', `--vgdb-prefix=${join(tmpdir(), 'crmkit-vgdb')}`];
const control = (args: string[]) =>
  execFileSync('callgrind_control', [VGDB[1]!, ...args], {
    encoding: 'utf8',
    env: { ...process.env, HOST: '127.0.0.1' },
  });

/**
 * `amount` requests, on the scenario's own connections where it has them, as in the bench (a timeout of
 * 60 s: under callgrind a request is slow, the first ones very slow); answers how many were answered.
 */
function load(spec: LoadSpec, amount: number, warmup: boolean): number {
  const connections = spec.connections ?? CONNECTIONS;
  const figures = runWrk(spec, { seconds: 3600, connections, amount, timeoutSeconds: 60 });
  if (figures.non2xx > 0 || (failed(figures) && !warmup))
    throw new Error(`errors or answers not 2xx: ${JSON.stringify(figures)}`);
  return figures.requests;
}

/**
 * The instructions callgrind has counted in `pid` since its counters were last zeroed, in all its
 * threads (V8's compiler and garbage collector helpers work for the requests too) and in the main one.
 */
function instructions(pid: number): { all: number; main: number } {
  const text = control(['-e', 'Ir', String(pid)]);
  const threads = [...text.matchAll(/^\s*Th\s*(\d+)\s+([\d,]+)\s*$/gm)].map(
    (m) => [Number(m[1]), Number(m[2]!.replace(/,/g, ''))] as const,
  );
  if (threads.length === 0) throw new Error(`no counter in callgrind_control's answer: ${text}`);
  return {
    all: threads.reduce((sum, [, count]) => sum + count, 0),
    main: threads.find(([thread]) => thread === 1)?.[1] ?? 0,
  };
}

/**
 * A target set against another scenario of the same run (bench/targets.ts: GET invoice ≥ 0.8× GET client's
 * rate), read as instructions: for work bound by one thread's CPU, rate goes as 1 / instructions, so the
 * share is the other's main-thread count over this one's.
 */
function relate(dist: string, mainPerRequest: Map<string, number>): void {
  for (const [scenario, own] of mainPerRequest) {
    const relative = PLANS[scenario]?.relative;
    const other = relative && mainPerRequest.get(relative.scenario);
    if (!relative || other === undefined) continue;
    const share = other / own;
    console.log(
      `${scenario.padEnd(28)} ${dist.padEnd(16)} against ${relative.scenario}, main thread: ${share.toFixed(3)}× (target ≥ ${relative.share}×: ${share >= relative.share ? 'pass' : 'miss'})`,
    );
  }
}

async function measure(dist: string, port: number): Promise<Map<string, number>> {
  // As in `npm run bench`: events are written, none delivered (the webhook scenario counts the outbox's write).
  if (POSTGRES && !(await freshPostgres())) throw new Error(`PostgreSQL unreachable at ${DATABASE_URL}`);
  const env = {
    ...serverEnv(port),
    // As bench/stores.ts starts the bench's server on each store.
    ...(POSTGRES
      ? { DATABASE_URL, PG_POOL_SIZE: '20' }
      : { DATA_DIR: mkdtempSync(join(tmpdir(), 'crmkit-instructions-')) }),
    WEBHOOKS_DELIVER: 'false',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
  };
  const child: ChildProcess = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      ...VGDB,
      `--callgrind-out-file=${OUT ? join(OUT, 'callgrind.out.%p') : '/dev/null'}`,
      '--smc-check=all-non-file',
      process.execPath,
      join(dist, 'main.js'),
    ],
    { env, stdio: ['ignore', 'ignore', 'ignore'] },
  );
  const perRequest = new Map<string, number>();
  const mainPerRequest = new Map<string, number>();
  try {
    const url = `http://127.0.0.1:${port}`;
    // Under callgrind the server takes about 45 s to start here.
    await waitFor(`${url}/healthz`, child, 300);
    const seeded = await seedBench(url, CLIENTS);
    // Nothing listens there: with delivery off, nothing is sent.
    if (wanted.includes(HOOKED_SCENARIO))
      seeded.hookedUrlKey = await hookedBusiness(url, seeded, 'http://127.0.0.1:9/');
    const named = wanted.length > 0 ? wanted : DEFAULT_SCENARIOS;
    const invoices = named.some((name) => INVOICE_SCENARIOS.includes(name as never))
      ? await seedInvoices(url, seeded, await operatorToken(url))
      : undefined;
    if (POSTGRES) await settlePostgres();
    // In the bench's order (bench/run.ts): the clients' and leads' scenarios, then the invoices'.
    const all = [...scenarios(seeded, url), ...(invoices ? invoiceScenarios(seeded, invoices, url) : [])];
    for (const [scenario, spec] of all) {
      if (!named.includes(scenario)) continue;
      load(spec, WARMUP, true);
      control(['-z', String(child.pid)]);
      const answered = load(spec, REQUESTS, false);
      const counted = instructions(child.pid!);
      // callgrind_control passes the name through a shell: letters, digits and dashes only.
      if (OUT) control([`--dump=${scenario.replace(/[^A-Za-z0-9]+/g, '-')}`, String(child.pid)]);
      perRequest.set(scenario, counted.all / answered);
      mainPerRequest.set(scenario, counted.main / answered);
      console.log(
        `${scenario.padEnd(28)} ${dist.padEnd(16)} ${Math.round(counted.all / answered / 1000)}k instructions per request (main thread ${Math.round(counted.main / answered / 1000)}k)`,
      );
    }
    relate(dist, mainPerRequest);
  } finally {
    child.kill('SIGKILL');
  }
  return perRequest;
}

console.log(
  `instructions per request under callgrind: ${WARMUP} requests of warm-up, then ${REQUESTS} counted, ${CONNECTIONS} connections, ${CLIENTS} stored clients, ${POSTGRES ? `PostgreSQL (${DATABASE_URL})` : 'SQLite'}`,
);
const results = [];
// A free port each: another engineer's run of this experiment may be listening beside it.
for (const dist of builds) results.push(await measure(dist, await freePort()));
if (results.length > 1) {
  for (const scenario of results[0]!.keys()) {
    const [first, ...others] = results.map((r) => r.get(scenario)!);
    console.log(
      `${scenario.padEnd(28)} ${others.map((other, i) => `${builds[0]} against ${builds[i + 1]}: ${(((first! - other) / other) * 100).toFixed(1)}%`).join('; ')}`,
    );
  }
}
