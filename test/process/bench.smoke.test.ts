import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOnce, failed, runWrk, type LoadSpec } from '../../bench/wrk.js';
import { builtScript } from '../helpers/spawn-script.js';

// The bench's machinery on a tiny setting, so that CI catches a broken bench. No figure is judged here:
// performance targets live in the bench (docs/performance.md), never in a timed test.

// In a process of its own: wrk runs synchronously, which would stall a server in this one.
const SERVER = `
  let n = 0;
  const seen = new Set();
  const paths = new Set();
  const last = new Map();
  require('node:http').createServer((req, res) => {
    if (req.url.startsWith('/move/')) {
      // A move must differ from the record's previous one, and each record's first is "A".
      let body = '';
      req.on('data', (d) => (body += d)).on('end', () => {
        const before = last.get(req.url) ?? 'B';
        last.set(req.url, body);
        res.writeHead(req.method === 'PATCH' && body !== before ? 200 : 409).end(JSON.stringify({ path: req.url, before, body }));
      });
      return;
    }
    if (req.url === '/moved') return res.writeHead(200).end(JSON.stringify(last.size));
    if (req.url.startsWith('/path/')) paths.add(req.url);
    if (req.url === '/paths') return res.writeHead(200).end(JSON.stringify([...paths].sort()));
    if (req.url === '/reset') return req.socket.destroy();
    if (req.url === '/retry') return res.writeHead(201).end('{"idempotent":true}');
    if (req.url === '/once') {
      let body = '';
      req.on('data', (d) => (body += d)).on('end', () => {
        const repeat = seen.has(body);
        seen.add(body);
        res.writeHead(repeat ? 409 : 201).end('{}');
      });
      return;
    }
    const status = req.url === '/mixed' && n++ % 3 === 2 ? 503 : 200;
    res.writeHead(status, { 'content-type': 'application/json' }).end('{"ok":true}');
  }).listen(0, '127.0.0.1', function () { process.stdout.write(this.address().port + '\\n'); });
`;

describe('the bench counts what must fail a scenario', () => {
  let server: ChildProcess;
  let spec: LoadSpec;
  beforeAll(async () => {
    server = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
    const port = await new Promise<string>((resolve) =>
      server.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim())),
    );
    spec = {
      url: `http://127.0.0.1:${port}`,
      method: 'GET',
      path: '/',
      headers: {},
      expect: { status: 200, text: '"ok"' },
    };
  });
  afterAll(() => {
    server.kill();
  });

  it('wrk counts every answer that is not 2xx, and such a run fails', () => {
    const figures = runWrk({ ...spec, path: '/mixed' }, { seconds: 1, connections: 5 });
    expect(figures.requests).toBeGreaterThan(0);
    expect(figures.non2xx).toBeGreaterThan(0);
    expect(figures.sample).toMatch(/^503 /);
    expect(failed(figures)).toBe(true);
    expect(failed(runWrk(spec, { seconds: 1, connections: 5 }))).toBe(false);
  });

  it('an answer holding the refused text is wrong, and the run fails', () => {
    const figures = runWrk({ ...spec, path: '/retry', refuse: '"idempotent"' }, { seconds: 1, connections: 5 });
    expect(figures.wrong).toBe(figures.requests);
    expect(failed(figures)).toBe(true);
  });

  it('per-request bodies are never repeated, across runs too', () => {
    const unique = { head: '{"id":"', tail: '"}', prefix: 'smoke' };
    for (let run = 0; run < 2; run++) {
      const figures = runWrk({ ...spec, method: 'POST', path: '/once', unique }, { seconds: 1, connections: 5 });
      expect(figures.requests).toBeGreaterThan(0);
      expect(failed(figures), figures.sample).toBe(false);
    }
  });

  it('each request takes the next of the given paths', async () => {
    const paths = ['/path/1', '/path/2', '/path/3', '/path/4'];
    expect(failed(runWrk({ ...spec, path: paths[0]!, paths }, { seconds: 1, connections: 2 }))).toBe(false);
    expect(JSON.parse((await checkOnce({ ...spec, path: '/paths', expect: { status: 200 } })).toString())).toEqual(
      paths,
    );
  });

  it('a cycle gives each record the next body in turn, across runs and checks', async () => {
    const paths = Array.from({ length: 20 }, (_, i) => `/move/${i}`);
    const moves: LoadSpec = {
      ...spec,
      method: 'PATCH',
      path: paths[0]!,
      paths,
      cycle: { bodies: ['A', 'B'], next: 0 },
      expect: { status: 200 },
    };
    for (let run = 0; run < 2; run++) {
      const figures = runWrk(moves, { seconds: 1, connections: 5 });
      expect(failed(figures), figures.sample).toBe(false);
      await checkOnce(moves);
    }
    expect(moves.cycle!.next).toBeGreaterThan(paths.length);
    expect(JSON.parse((await checkOnce({ ...spec, path: '/moved', expect: { status: 200 } })).toString())).toBe(
      paths.length,
    );
  });

  it('the check before timing rejects a wrong body', async () => {
    await expect(checkOnce({ ...spec, expect: { status: 200, text: '"absent"' } })).rejects.toThrow(
      /no "absent" in the body/,
    );
    await expect(checkOnce(spec)).resolves.toEqual(Buffer.from('{"ok":true}'));
  });

  it('a connection the server drops is a socket error, and the run fails', () => {
    const figures = runWrk({ ...spec, path: '/reset' }, { seconds: 1, connections: 2 });
    expect(Object.keys(figures.socketErrors).length).toBeGreaterThan(0);
    expect(failed(figures)).toBe(true);
  });
});

it("the bench (bench/run.ts) runs one round of four scenarios (one of the leads', one with a webhook) with their anchors and writes its results", async () => {
  const out = join(mkdtempSync(join(tmpdir(), 'crmkit-bench-smoke-')), 'results.json');
  const env = {
    ...process.env,
    // The servers run from the test run's build of src/ (no `npm run build` needed).
    BENCH_SERVER_ENTRY: builtScript('main'),
    BENCH_STORES: 'sqlite',
    BENCH_SCENARIOS: 'GET pipelines (issued),POST new client,POST new client (1 webhook),PATCH stage move',
    BENCH_ROUNDS: '1',
    BENCH_DURATION: '1',
    BENCH_WARMUP: '0',
    BENCH_CLIENTS: '20',
    BENCH_OUT: out,
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  expect(code, output).toBe(0);

  const results = JSON.parse(readFileSync(out, 'utf8')) as {
    rows: {
      scenario: string;
      status: string;
      crmkit?: { requests?: number };
      anchors?: { name: string }[];
      checks: { target: string }[];
      delivery?: { backlog: number; delivered: number };
    }[];
  };
  const row = (name: string) => results.rows.find((r) => r.scenario === name)!;
  expect(results.rows.map((r) => [r.scenario, r.status === 'FAILED'])).toEqual([
    ['GET pipelines (issued)', false],
    ['POST new client', false],
    ['PATCH stage move', false],
    ['server RSS MB', false],
    ['POST new client (1 webhook)', false],
    ['webhook deliveries/s', false],
  ]);
  // The webhook scenario is timed against the same creates on a business without an endpoint, and a
  // second, delivering process then hands every event its creates left to the bench's receiver.
  expect(row('POST new client (1 webhook)').anchors!.map((a) => a.name)).toEqual(['POST new client, no endpoint']);
  expect(row('POST new client (1 webhook)').checks.map((c) => c.target)).toEqual([
    '≥ 0.9× POST new client, no endpoint',
    'p99 ≤ 25 ms',
  ]);
  const delivery = row('webhook deliveries/s').delivery!;
  expect(delivery.backlog).toBeGreaterThan(0);
  expect(delivery.delivered).toBe(delivery.backlog);
  expect(row('PATCH stage move')).toMatchObject({
    status: 'measured',
    checks: [],
    anchors: [{ name: 'sqlite driver insert' }],
  });
  expect(output).toMatch(/PATCH stage move .* beside POST new client: \d+ req\/s/);
  expect(row('GET pipelines (issued)').anchors!.map((a) => a.name)).toEqual(['node:http replay', 'bare Fastify route']);
  expect(row('POST new client').anchors!.map((a) => a.name)).toEqual(['sqlite driver insert']);
  expect(row('POST new client').checks.map((c) => c.target)).toEqual([
    '≥ 0.2 of the baseline',
    '≥ 2× sqlite driver insert',
    'p99 ≤ 25 ms',
  ]);
  expect(output).toMatch(/anchor node:http replay: \d+ req\/s/);
}, 90_000);
