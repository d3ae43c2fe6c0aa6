import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../helpers/process.js';
import { migratedDataDir } from '../helpers/sqlite-template.js';

/**
 * docs/reliability.md "Shutdown": a SIGTERM's close lets the requests in flight finish, closes their
 * keep-alive connections as they end, and exits 0; a close that cannot finish is ended at
 * SHUTDOWN_GRACE_MS with exit 1 and a line naming the stage it waited on. The request in flight is a
 * real one, held by its client: its headers are in (the server's `100 Continue` says so), its body is not.
 */

const CRLF = '\r\n';
const BODY = JSON.stringify({ strategy: 'app-secret', appId: 'app_unknown', appSecret: 'not-a-secret' });
/** Keep-alive (no `Connection: close`), as fetch sends it; the body waits for the server's go-ahead. */
const HEAD = [
  'POST /authentication HTTP/1.1',
  'Host: crmkit.test',
  'Content-Type: application/json',
  `Content-Length: ${Buffer.byteLength(BODY)}`,
  'Expect: 100-continue',
  '',
  '',
].join(CRLF);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A connection and everything the server has sent on it; `closed` once the server ends it. */
async function openConnection(url: string): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  let received = '';
  socket.on('data', (chunk) => (received += chunk));
  const closed = once(socket, 'close').then(() => undefined);
  return { socket, received: () => received, closed };
}

async function until(what: string, condition: () => boolean, limitMs = 10_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** The exit code, or 'running' when the process has not exited within `limitMs`. */
async function exitWithin(server: ServerProcess, limitMs: number): Promise<number | 'running'> {
  const { child } = server;
  if (child.exitCode === null) await Promise.race([once(child, 'exit'), sleep(limitMs)]);
  return child.exitCode ?? 'running';
}

/** A server on its own embedded store with a request in flight: headers read, body not yet sent. */
async function serverWithRequestInFlight(env: Record<string, string>) {
  const server = await spawnServer({ DATA_DIR: migratedDataDir(), LOG_LEVEL: 'info', ...env });
  const connection = await openConnection(server.url);
  connection.socket.write(HEAD);
  await until('100 Continue', () => connection.received().startsWith('HTTP/1.1 100 Continue'));
  return { server, connection };
}

describe('shutdown: SIGTERM with a request in flight on a keep-alive connection', () => {
  let server: ServerProcess | undefined;
  afterEach(async () => server?.kill());

  it('the request is answered, its connection closed after the answer, and the process exits 0 at once', async () => {
    const started = await serverWithRequestInFlight({ SHUTDOWN_GRACE_MS: '60000' });
    server = started.server;
    const { connection } = started;
    server.child.kill('SIGTERM');
    await until('the close to start', () => server!.output().includes('shutting down'));
    connection.socket.write(BODY);
    // Before the fix the answer came, then the connection stayed open until Fastify's keep-alive timeout
    // (72 s), and the close with it. Exiting takes well under a second; the 15 s are for a loaded machine.
    expect(await exitWithin(server, 15_000)).toBe(0);
    await connection.closed;
    // Answered as a request routed before the close (a request routed after it gets 503 and `Connection:
    // close`, which would not test the keep-alive connection this is about).
    const answer = connection.received().replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer).not.toMatch(/connection: close/i);
  }, 60_000);

  it('a request that never ends is cut at SHUTDOWN_GRACE_MS: exit 1, the line naming the stage still running', async () => {
    const graceMs = 1000;
    // The body timeout (REQUEST_TIMEOUT_MS) would cut the request first; here it is longer than the grace.
    const started = await serverWithRequestInFlight({
      SHUTDOWN_GRACE_MS: String(graceMs),
      REQUEST_TIMEOUT_MS: '600000',
    });
    server = started.server;
    const sent = performance.now();
    server.child.kill('SIGTERM');
    expect(await exitWithin(server, graceMs + 10_000)).toBe(1);
    expect(performance.now() - sent).toBeGreaterThanOrEqual(graceMs - 50);
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    const last = lines.find((line) => line.msg === 'shutdown did not finish in time: exiting');
    expect(last).toMatchObject({ graceMs, signal: 'SIGTERM' });
    expect(last.waitingOn).toEqual([{ stage: 'HTTP requests and connections', ms: expect.any(Number) }]);
    started.connection.socket.destroy();
  }, 60_000);
});
