/**
 * The load generator: wrk (C, Debian's package), one thread, driven by bench/wrk.lua. A JavaScript load
 * generator parsed every answer on the same two cores as the server and set the ceiling itself (issue 22).
 */
import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** One scenario's requests, and the answer a check of one of them expects. */
export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Each request takes the next of these paths (each wrk thread in its own shuffled order). */
  paths?: string[];
  /**
   * With `paths`: a cycle. Request i goes to paths[i mod n] (in order, not shuffled) with the body of its
   * pass, bodies[floor(i / n) mod bodies.length], so each record takes the bodies in turn. `next` (the
   * index of the next request) is advanced by every run and check, so a cycle goes on across runs.
   */
  cycle?: { bodies: string[]; next: number };
  /** Each request's body is head + an id never sent before + tail. */
  unique?: { head: string; tail: string; prefix: string };
  /** While timing, an answer whose body holds this text is wrong (a "new" client answered as a retry). */
  refuse?: string;
  /** wrk's connections for this scenario, when not the run's (the PDF scenario: a few, bench/invoices.ts). */
  connections?: number;
  expect: { status: number; text?: string; body?: Buffer };
}

export interface Figures {
  requestsPerSecond: number;
  requests: number;
  p50: number;
  p99: number;
  max: number;
  socketErrors: Record<string, number>;
  non2xx: number;
  wrong: number;
  sample: string;
}

const LIBRARY = resolve('bench', 'wrk.lua');
const scripts = mkdtempSync(join(tmpdir(), 'crmkit-wrk-'));
let written = 0;

const lua = (text: string) => {
  if (text.includes(']==]')) throw new Error('a request text holds ]==]');
  return `[==[${text}]==]`;
};

/** The wrk script for a spec: the `bench` table, then the library. */
function script(spec: LoadSpec, amount?: number): string {
  const file = join(scripts, `${++written}.lua`);
  const headers = Object.entries(spec.headers)
    .map(([name, value]) => `[ ${lua(name)} ] = ${lua(value)}`)
    .join(', ');
  const fields = [`method = "${spec.method}"`, `headers = { ${headers} }`];
  if (spec.body !== undefined) fields.push(`body = ${lua(spec.body)}`);
  if (spec.paths) {
    const list = join(scripts, `${written}.paths`);
    writeFileSync(list, `${spec.paths.join('\n')}\n`);
    fields.push(`pathsFile = ${lua(list)}`);
  }
  // Each run its own prefix: wrk's counters start again at 1 in every run, and a repeated clientId would
  // be answered as an identical retry (or, by the bare driver, as a conflict).
  if (spec.unique)
    fields.push(
      `unique = { head = ${lua(spec.unique.head)}, tail = ${lua(spec.unique.tail)}, prefix = ${lua(`${spec.unique.prefix}-${process.pid}-${written}`)} }`,
    );
  if (spec.cycle) fields.push(`bodies = { ${spec.cycle.bodies.map(lua).join(', ')} }`, `first = ${spec.cycle.next}`);
  if (spec.refuse) fields.push(`refuse = ${lua(spec.refuse)}`);
  if (amount) fields.push(`amount = ${amount}`);
  writeFileSync(file, `bench = { ${fields.join(', ')} }\ndofile(${lua(LIBRARY)})\n`);
  return file;
}

export interface WrkOptions {
  seconds: number;
  connections: number;
  amount?: number;
  timeoutSeconds?: number;
}

function wrkArgs(spec: LoadSpec, options: WrkOptions): string[] {
  return [
    '-t1',
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    `--timeout`,
    `${options.timeoutSeconds ?? 5}s`,
    '-s',
    script(spec, options.amount),
    `${spec.url}${spec.path}`,
  ];
}

/** One wrk run. Throws when wrk itself fails; errors and non-2xx answers are in the figures. */
export function runWrk(spec: LoadSpec, options: WrkOptions): Figures {
  const out = spawnSync('wrk', wrkArgs(spec, options), { encoding: 'utf8' });
  if (out.error)
    throw new Error(`wrk did not run (${out.error.message}): \`node scripts/setup.mjs --no-browser\` installs it`);
  return figuresOf(spec, out.status, out.stdout, out.stderr);
}

/**
 * A wrk run in the background, for load beside a synchronous runWrk (the PDF stall check): spawned now,
 * its figures once it ends. Its output is read when the event loop runs again.
 */
export function startWrk(spec: LoadSpec, options: WrkOptions): Promise<Figures> {
  const child = spawn('wrk', wrkArgs(spec, options), { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => {
      try {
        resolve(figuresOf(spec, status, stdout, stderr));
      } catch (error) {
        reject(error);
      }
    });
  });
}

function figuresOf(spec: LoadSpec, status: number | null, stdout: string, stderr: string): Figures {
  const line = /^BENCH_RESULT (.*)$/m.exec(stdout)?.[1];
  if (status !== 0 || !line) throw new Error(`wrk failed (${status}): ${stderr}${stdout}`);
  const r = JSON.parse(line) as {
    requests: number;
    durationUs: number;
    socketErrors: Record<string, number>;
    non2xx: number;
    wrong: number;
    sample: string;
    p50Us: number;
    p99Us: number;
    maxUs: number;
    cycled: number;
  };
  // Requests still in flight when wrk stopped count too: the server applies them.
  if (spec.cycle) spec.cycle.next += r.cycled;
  const ms = (us: number) => Math.round(us / 10) / 100;
  return {
    requestsPerSecond: r.requests / (r.durationUs / 1e6),
    requests: r.requests,
    p50: ms(r.p50Us),
    p99: ms(r.p99Us),
    max: ms(r.maxUs),
    socketErrors: Object.fromEntries(Object.entries(r.socketErrors).filter(([, n]) => n > 0)),
    non2xx: r.non2xx,
    wrong: r.wrong,
    sample: r.sample,
  };
}

/** A run fails on any socket error, any non-2xx or wrong answer, or no answer at all. */
export const failed = (f: Figures) =>
  f.non2xx > 0 || f.wrong > 0 || Object.keys(f.socketErrors).length > 0 || f.requests === 0;

let checked = 0;

/** The next request of a spec, as wrk would send it (a cycle's is taken from it; a unique id is never sent twice). */
function nextRequest(spec: LoadSpec): { path: string; body?: string } {
  if (spec.cycle && spec.paths) {
    const i = spec.cycle.next++;
    return {
      path: spec.paths[i % spec.paths.length]!,
      body: spec.cycle.bodies[Math.floor(i / spec.paths.length) % spec.cycle.bodies.length]!,
    };
  }
  const body = spec.unique
    ? `${spec.unique.head}${spec.unique.prefix}-check-${++checked}${spec.unique.tail}`
    : spec.body;
  return { path: spec.paths?.[0] ?? spec.path, ...(body !== undefined && { body }) };
}

/**
 * Before timing: one request sent as the scenario sends them, on a new connection, and its full answer
 * checked (status, and the body's text or exact bytes). Answers the body, or throws saying what came.
 */
export function checkOnce(spec: LoadSpec): Promise<Buffer> {
  const { path, body } = nextRequest(spec);
  return new Promise((done, fail) => {
    const headers = {
      ...spec.headers,
      ...(body !== undefined && { 'content-length': String(Buffer.byteLength(body)) }),
    };
    const request = http.request(`${spec.url}${path}`, { method: spec.method, agent: false, headers }, (response) => {
      const chunks: Buffer[] = [];
      response
        .on('data', (chunk: Buffer) => chunks.push(chunk))
        .on('end', () => {
          const got = Buffer.concat(chunks);
          const { status, text, body: bytes } = spec.expect;
          const wrong =
            response.statusCode !== status
              ? `status ${response.statusCode}, expected ${status}`
              : text !== undefined && !got.toString().includes(text)
                ? `no ${text} in the body`
                : spec.refuse && got.toString().includes(spec.refuse)
                  ? `${spec.refuse} in the body`
                  : bytes && !bytes.equals(got)
                    ? 'a body other than the expected bytes'
                    : undefined;
          if (wrong) fail(new Error(`${spec.method} ${path}: ${wrong}: ${got.toString().slice(0, 300)}`));
          else done(got);
        });
    });
    request.on('error', fail);
    request.end(body);
  });
}
