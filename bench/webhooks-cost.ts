/**
 * What the webhook outbox costs POST new client, and how many deliveries one instance sends a second.
 * `npm run build && npx tsx bench/webhooks-cost.ts` (BENCH_STORES=sqlite,postgres; BENCH_ROUNDS=3).
 *
 * Two businesses behind one app: one without an endpoint, one with an endpoint subscribed to
 * client.created on a local receiver (a separate process answering 204).
 * 1. The write cost: a server that does not deliver (WEBHOOKS_DELIVER=false), rounds alternating the
 *    two businesses (A B A B …), the median of each compared.
 * 2. Delivery: a delivering server started on the backlog that left, timed until it has drained.
 * 3. Both at once: rounds alternating again on the delivering server (creates and their deliveries
 *    sharing the process).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { SERVER_FLAGS, serverEnv, waitFor } from './server.js';
import { failed, runWrk } from './wrk.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const STORES = (process.env.BENCH_STORES ?? 'sqlite,postgres').split(',');
const PG_ADMIN = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PG_BENCH = PG_ADMIN.replace(/\/[^/]*$/, '/crmkit_hooks_bench');
const PORT = 39_300;
const RECEIVER_PORT = 39_301;

async function call(url: string, method: string, path: string, token?: string, body?: unknown): Promise<any> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${url}${path}`, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) });
  const json = await response.json().catch(() => undefined);
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

const RECEIVER = `let n = 0; require('node:http').createServer((q, s) => {
  if (q.method === 'GET') return s.end(String(n));
  q.resume(); q.on('end', () => { n++; s.writeHead(204).end(); });
}).listen(${RECEIVER_PORT}, '127.0.0.1');`;

/** One wrk run of POST new client (a clientId never sent before per request); every answer must be a 201 new client. */
function load(url: string, path: string, token: string, tag: string): number {
  const body = JSON.stringify({ clientId: '\u0000', name: 'Bench Client', email: 'bench@example.com', gstin: '27AAPFU0939F1ZV' });
  const [head, tail] = body.split('\\u0000') as [string, string];
  const figures = runWrk({
    url, method: 'POST', path, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    unique: { head, tail, prefix: tag }, refuse: '"idempotent":true', expect: { status: 201, text: '"clientId"' },
  }, { seconds: DURATION, connections: 50 });
  if (failed(figures)) throw new Error(`${tag}: ${figures.non2xx} non-2xx, ${figures.wrong} wrong answers, socket errors ${JSON.stringify(figures.socketErrors)}: ${figures.sample}`);
  if (tag.includes('hooked')) subscribedCreates += figures.requests;
  return figures.requestsPerSecond;
}

let subscribedCreates = 0;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function startServer(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [...SERVER_FLAGS, 'dist/main.js'], { env, stdio: ['ignore', process.env.BENCH_SERVER_LOG ? 'inherit' : 'ignore', 'inherit'] });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function measure(store: string): Promise<void> {
  const env: Record<string, string> = { ...serverEnv(PORT), WEBHOOKS_ALLOW_PRIVATE: 'true' };
  if (store === 'postgres') {
    const admin = new pg.Client({ connectionString: PG_ADMIN });
    await admin.connect();
    await admin.query('drop database if exists crmkit_hooks_bench with (force)');
    await admin.query('create database crmkit_hooks_bench');
    await admin.end();
    env.DATABASE_URL = PG_BENCH;
  } else env.DATA_DIR = mkdtempSync(join(tmpdir(), 'crmkit-hooks-bench-'));
  const receiver: ChildProcess = spawn(process.execPath, ['-e', RECEIVER], { stdio: 'ignore' });
  let server = startServer({ ...env, WEBHOOKS_DELIVER: 'false' });
  const url = `http://127.0.0.1:${PORT}`;
  // A new connection each time: a pooled one dies while the synchronous load generator runs.
  const received = () => new Promise<number>((resolve, reject) => {
    http.get(`http://127.0.0.1:${RECEIVER_PORT}/`, { agent: false }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk)).on('end', () => resolve(Number(text)));
    }).on('error', reject);
  });
  try {
    await waitFor(`${url}/healthz`, server);
    await waitFor(`http://127.0.0.1:${RECEIVER_PORT}/`, receiver);
    const operator = (await call(url, 'POST', '/authentication', undefined, { strategy: 'local', email: 'bench@crmkit.local', password: 'bench-password-123' })).accessToken;
    const app = (await call(url, 'POST', '/admin/v1/apps', operator, { name: 'hooks bench' })).data;
    const keys = { none: `plain-${Date.now()}`, hooked: `hooked-${Date.now()}` };
    for (const urlKey of Object.values(keys)) {
      await call(url, 'POST', '/admin/v1/businesses', operator, { name: urlKey, country: 'IN', urlKey });
      await call(url, 'PUT', `/admin/v1/apps/${app.appId}/businesses/${urlKey}`, operator);
    }
    await call(url, 'POST', `/admin/v1/businesses/${keys.hooked}/webhooks`, operator, { url: `http://127.0.0.1:${RECEIVER_PORT}/`, eventTypes: ['client.created'] });
    const token = (await call(url, 'POST', '/authentication', undefined, { strategy: 'app-secret', appId: app.appId, appSecret: app.appSecret })).accessToken;
    const rounds = (phase: string) => {
      const rps = { none: [] as number[], hooked: [] as number[] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const variant of ['none', 'hooked'] as const) {
          rps[variant].push(load(url, `/api/v1/businesses/${keys[variant]}/clients`, token, `${phase}-${variant}-${round}`));
        }
      }
      const ratio = median(rps.hooked) / median(rps.none);
      return { noEndpoint: rps.none.map(Math.round), oneEndpoint: rps.hooked.map(Math.round), medianRatio: Number(ratio.toFixed(3)), costPercent: Number(((1 - ratio) * 100).toFixed(1)) };
    };
    const writeCost = rounds('write');

    await stop(server);
    server = startServer(env);
    await waitFor(`${url}/healthz`, server);
    const start = Date.now();
    let last = await received();
    let lastAt = start;
    const backlog = subscribedCreates;
    while (last < backlog && Date.now() - lastAt < 10_000) {
      await new Promise((r) => setTimeout(r, 200));
      const now = await received();
      if (now !== last) lastAt = Date.now();
      last = now;
    }
    const drained = last;
    const together = rounds('together');
    console.log(JSON.stringify({
      store, rounds: ROUNDS, durationSeconds: DURATION, writeCost,
      delivery: { backlog, backlogDrained: drained, seconds: Number(((lastAt - start) / 1000).toFixed(1)), deliveriesPerSecond: Math.round(drained / ((lastAt - start) / 1000)) },
      createsWhileDelivering: together, subscribedCreates, deliveredInAll: await received(),
    }));
  } finally {
    await stop(server);
    receiver.kill('SIGTERM');
  }
}

for (const store of STORES) await measure(store);
