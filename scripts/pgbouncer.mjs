// Starts a real PgBouncer (Debian's `pgbouncer`) in transaction mode in front of the test PostgreSQL:
// used by scripts/test.mjs for the pooled pass and by the three-instance tests. Plain JS, no dependencies.
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

const accepts = (port) =>
  new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

/**
 * `upstream`: a postgres:// URL of the real server (its database part is ignored: every database name
 * is passed through). `poolSize`: server connections per database and user, the scarce resource the
 * pooler shares out. Answers { url(database), port, stop() }.
 */
export async function startPgBouncer({ upstream, poolSize = 8, maxClients = 1000 }) {
  const server = new URL(upstream);
  const user = decodeURIComponent(server.username || 'postgres');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'crmkit-pgbouncer-'));
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" ""\n`);
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${poolSize}`,
      'min_pool_size = 0',
      'reserve_pool_size = 0',
      `max_client_conn = ${maxClients}`,
      'max_db_connections = 0',
      // A server connection idle for over 1 s is checked before it is lent (one killed under it is not).
      'server_check_delay = 1',
      'ignore_startup_parameters = extra_float_digits,options,statement_timeout',
      // The upstream user may read SHOW POOLS on the `pgbouncer` console database (tests check the pool).
      `stats_users = ${user}`,
      'log_connections = 0',
      'log_disconnections = 0',
      '',
    ].join('\n'),
  );
  // PgBouncer refuses to run as root; -u drops to an ordinary user (the files must be readable by it).
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    for (const name of ['', 'userlist.txt', 'pgbouncer.ini']) chmodSync(join(dir, name), name ? 0o644 : 0o755);
    chownSync(dir, 65534, 65534);
  }
  const args = [...(asRoot ? ['-u', 'nobody'] : []), join(dir, 'pgbouncer.ini')];
  const child = spawn('pgbouncer', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.once('error', (error) => (output += String(error)));
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`pgbouncer did not start: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const base = `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}`;
  return {
    port,
    pid: child.pid,
    poolSize,
    url: (database) => `${base}/${database}`,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
