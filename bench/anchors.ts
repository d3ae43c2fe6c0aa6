/**
 * The anchors, each a server in its own process, measured in the same paired rounds as the scenario they
 * anchor: what a server with less (or none) of crmkit's work reaches under the same load generator.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkOnce, type LoadSpec } from './wrk.js';

export interface Target {
  name: string;
  pid: number;
  spec: LoadSpec;
  stop: () => Promise<void>;
  /** Its requests reach the database: PostgreSQL's CPU time per answer is measured with its runs. */
  usesDatabase?: boolean;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
      .listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      })
      .on('error', reject);
  });
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** Starts `node SCRIPT PORT ...args` and waits for its "ready" line. */
export async function startScript(
  name: string,
  script: string,
  args: string[],
  spec: (url: string) => LoadSpec,
): Promise<Target> {
  const port = await freePort();
  const child = spawn(process.execPath, [join('bench', script), String(port), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`${name} exited during start (${code})`)));
  });
  return { name, pid: child.pid!, spec: spec(`http://127.0.0.1:${port}`), stop: () => stopChild(child) };
}

/** The yardstick: a raw node:http server answering a fixed 200-byte JSON. */
export const BASELINE = 'raw node:http, 200-byte JSON (baseline)';
export function startBaseline(): Promise<Target> {
  return startScript(BASELINE, 'baseline.mjs', [], (url) => ({
    url,
    method: 'GET',
    path: '/',
    headers: {},
    expect: { status: 200, text: '"success":true' },
  }));
}

/** A recorded answer: status, the headers our code chose (not those Node writes on any server), body. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The answer to a GET spec's request, on a new connection. */
export function recordAnswer(spec: LoadSpec): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(`${spec.url}${spec.path}`, { agent: false, headers: spec.headers }, (response) => {
        const chunks: Buffer[] = [];
        response
          .on('data', (chunk: Buffer) => chunks.push(chunk))
          .on('end', () => {
            const ours = Object.entries(response.headers).filter(
              ([name]) => !['date', 'connection', 'keep-alive', 'content-length'].includes(name),
            );
            resolve({
              status: response.statusCode!,
              headers: Object.fromEntries(ours) as Record<string, string>,
              body: Buffer.concat(chunks),
            });
          });
      })
      .on('error', reject);
  });
}

/**
 * The two anchors of a cached GET: a raw node:http server replaying the scenario's exact answer, and a
 * bare Fastify route sending the same bytes on the same route pattern. Each is checked to send them.
 */
export async function startAnswerAnchors(answer: Answer, spec: LoadSpec, route: string): Promise<Target[]> {
  const file = join(mkdtempSync(join(tmpdir(), 'crmkit-answer-')), 'answer.json');
  writeFileSync(file, JSON.stringify({ ...answer, body: answer.body.toString('base64') }));
  const same = (url: string): LoadSpec => ({
    ...spec,
    url,
    headers: {},
    expect: { status: answer.status, body: answer.body },
  });
  const replay = await startScript('node:http replay', 'replay.mjs', [file], same);
  const fastify = await startScript('bare Fastify route', 'fastify-route.mjs', [file, route], same);
  return [replay, fastify];
}

/** The bare-driver service (bench/driver.mjs) of a store, and its two specs: a point read and an insert. */
export async function startDriver(
  store: 'postgres' | 'sqlite',
  databaseUrl: string | undefined,
  rows: number,
): Promise<{ read: Target; insert: Target }> {
  const where = store === 'postgres' ? databaseUrl! : join(mkdtempSync(join(tmpdir(), 'crmkit-driver-')), 'driver.db');
  const paths = Array.from({ length: rows }, (_, i) => `/rows/row-${i + 1}`);
  const json = { 'content-type': 'application/json' };
  const read = await startScript(`${store} driver read`, 'driver.mjs', [String(rows), store, where], (url) => ({
    url,
    method: 'GET',
    path: paths[0]!,
    paths,
    headers: {},
    expect: { status: 200, text: '"id":"row-' },
  }));
  // The insert body: a stored row, under a new id.
  const row = (JSON.parse((await checkOnce(read.spec)).toString()) as { data: Record<string, unknown> }).data;
  const [head, tail] = JSON.stringify({ ...row, id: '@ID@' }).split('@ID@') as [string, string];
  const insert: Target = {
    ...read,
    name: `${store} driver insert`,
    spec: {
      url: read.spec.url,
      method: 'POST',
      path: '/rows',
      headers: json,
      unique: { head, tail, prefix: `row-new-${Date.now()}` },
      expect: { status: 201, text: '"id":"row-new-' },
    },
  };
  return { read: { ...read, usesDatabase: true }, insert: { ...insert, usesDatabase: true } };
}
