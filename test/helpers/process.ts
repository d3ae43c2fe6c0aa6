import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { nodeArgsFor } from './spawn-script.js';
import { withDirectUrl } from './stores.js';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** SIGTERM and wait for exit. */
  stop(): Promise<void>;
  /** SIGKILL: a crash, as far as the server can tell. */
  kill(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * A stop that takes longer than this prints the server's output so far: a close that hangs then shows
 * which of its stages is still running (the server logs each stage that runs past 2 s, at warn).
 */
const SLOW_STOP_MS = 5000;

/** Servers this worker started that have not exited yet. */
const running = new Set<ChildProcess>();

/**
 * Kills the servers a test file left running (test/helpers/each-file.ts, after each file): a test that
 * timed out before its `stop()` left its server running after the run (vitest ends its workers without
 * their `exit` event), holding database sessions and delivering other files' pending events.
 */
export async function killLeftServers(): Promise<void> {
  await Promise.all(
    [...running].map((child) => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      return exited;
    }),
  );
}

/**
 * Starts `src/main.ts` (from the run's build), or `entry`, a test's own server script (through tsx), as a
 * real server process, and waits until /healthz answers.
 */
export async function spawnServer(
  env: Record<string, string>,
  options: { timeoutMs?: number; entry?: string } = {},
): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, nodeArgsFor(options.entry ?? 'src/main.ts'), {
    env: { ...process.env, LOG_LEVEL: 'warn', ...withDirectUrl(env), PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  running.add(child);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      running.delete(child);
      resolve();
    }),
  );
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited during start: ${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start in time: ${output}`);
    }
    // Polled often: a server starts in a few hundred milliseconds, and every process test waits on it.
    await new Promise((r) => setTimeout(r, 20));
  }
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const started = performance.now();
    let shown = -1; // how much of the output was printed; -1: none, the stop was not slow
    const said = (what: string) =>
      console.warn(`[spawnServer] ${url} (pid ${child.pid}) ${what}; its output:\n${output.slice(Math.max(shown, 0))}`);
    const slow = setTimeout(() => {
      said(`has not exited ${SLOW_STOP_MS} ms after ${signal}`);
      shown = output.length;
    }, SLOW_STOP_MS);
    await exited;
    clearTimeout(slow);
    const took = Math.round(performance.now() - started);
    if (shown >= 0) said(`exited ${took} ms after ${signal} (code ${child.exitCode}), output since`);
  };
  return { url, child, output: () => output, stop: () => end('SIGTERM'), kill: () => end('SIGKILL') };
}

export async function http(
  url: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${url}${path}`, {
    method,
    headers,
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // leave text
  }
  return { status: response.status, body };
}

/**
 * docs/pipelines.md "Caching and freshness": after a change through `a`, `a` sees it at once and `b` within `limitMs`
 * (polled every 10 ms). Answers b's delay; throws naming which process was late.
 */
export async function seenBy(
  a: ServerProcess,
  b: ServerProcess,
  probe: (server: ServerProcess) => Promise<boolean>,
  limitMs = 1000,
): Promise<number> {
  const started = performance.now();
  if (!(await probe(a))) throw new Error('the process that made the change does not see it at once');
  while (performance.now() - started < limitMs) {
    if (await probe(b)) return performance.now() - started;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`the other process did not see the change within ${limitMs} ms`);
}
