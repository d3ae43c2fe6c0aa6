// @module-tag smoke
import { connect } from 'node:net';
import { sqliteDriver } from '../../src/storage/sqlite-driver.js';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { sqliteFile } from '../../src/ops/sqlite-backup.js';
import { openStore } from '../../src/storage/store.js';
import { TEST_ADMIN, tempDataDir } from '../helpers/stores.js';
import { http } from '../helpers/process.js';
import { cli, ownLines, runNode, startProcess } from './ops.support.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('ops: a bad configuration stops the start with one line naming the variable', () => {
  it.each([
    [{ PORT: 'abc' }, /^crmkit: PORT: invalid value "abc"/],
    [{ LOG_LEVEL: 'loud' }, /^crmkit: LOG_LEVEL: /],
    [{ WORKERS: '2' }, /^crmkit: WORKERS: .*PostgreSQL/],
  ])('%j → exit 1', async (env, message) => {
    const result = await runNode('src/main.ts', [], { DATA_DIR: tempDataDir(), ...env });
    expect(result.code).toBe(1);
    const lines = ownLines(result.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(result.stdout).toBe('');
  });
});

describe('ops: upgrades', () => {
  it('a server refuses to start on a schema newer than it knows, with a clear message', async () => {
    const dataDir = tempDataDir();
    const store = openStore(testConfig({ dataDir }));
    await store.migrate();
    await store.close();
    // What a newer crmkit would leave behind: a migration this build has never heard of.
    const db = new (sqliteDriver())(sqliteFile(dataDir));
    db.prepare('insert into kysely_migration (name, timestamp) values (?, ?)').run(
      '999-from-the-future',
      new Date().toISOString(),
    );
    db.close();

    const server = await runNode('src/main.ts', [], { DATA_DIR: dataDir });
    expect(server.code).toBe(1);
    expect(ownLines(server.stderr)).toEqual([
      expect.stringMatching(/^crmkit: The database schema is newer than this crmkit build knows.*Upgrade crmkit/),
    ]);
    const migrate = await cli(['migrate'], { DATA_DIR: dataDir });
    expect(migrate.code).toBe(1);
    expect(migrate.stderr).toMatch(/schema is newer than this crmkit build/);
  });
});

describe('ops: the first start on an empty store', () => {
  it('prints the generated operator password once on stdout, never in a log line; it signs in', async () => {
    const dataDir = tempDataDir();
    const server = await startProcess('src/main.ts', [], { DATA_DIR: dataDir, LOG_LEVEL: 'trace' });
    let password: string;
    try {
      const printed = /created operator (\S+) with password (\S+)/.exec(server.stdout());
      expect(printed).not.toBeNull();
      password = printed![2]!;
      const login = await http(server.url, 'POST', '/authentication', {
        body: { strategy: 'local', email: printed![1], password },
      });
      expect(login.status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const stdout = server.stdout();
    expect(stdout.split(password).length - 1).toBe(1);
    const logLines = stdout.split('\n').filter((l) => l.startsWith('{'));
    expect(logLines.length).toBeGreaterThan(3); // trace level: the server did log, including the login
    for (const line of logLines) expect(line).not.toContain(password);
    expect(server.stderr()).not.toContain(password);

    const again = await startProcess('src/main.ts', [], { DATA_DIR: dataDir });
    expect(await again.stop()).toBe(0);
    expect(again.stdout()).not.toMatch(/password/);
  });
});

/** Sends a request's head and part of its body now, the rest on `finish()`; resolves with the raw answer. */
function slowRequest(url: string, path: string, body: string) {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let answer = '';
  socket.on('data', (d) => (answer += d));
  const ended = new Promise<string>((resolve) => socket.on('close', () => resolve(answer)));
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, 5)}`,
  );
  return { finish: () => socket.write(body.slice(5)), ended };
}

describe('ops: graceful shutdown', () => {
  it('SIGTERM lets an in-flight request finish, refuses new connections, then exits 0', async () => {
    const server = await startProcess('src/main.ts', [], {
      DATA_DIR: tempDataDir(),
      ADMIN_EMAIL: TEST_ADMIN.email,
      ADMIN_PASSWORD: TEST_ADMIN.password,
    });
    const request = slowRequest(server.url, '/authentication', JSON.stringify({ strategy: 'local', ...TEST_ADMIN }));
    await sleep(300);
    const stopped = server.stop('SIGTERM');
    await sleep(500);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    request.finish();
    const answer = await request.ended;
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('"accessToken"');
    expect(await stopped).toBe(0);
  });
});
