import cluster from 'node:cluster';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createLogger } from './logger.js';
import { startServer } from './server.js';
import { SchemaTooNewError } from './storage/migrate.js';

function fail(message: string): never {
  process.stderr.write(`crmkit: ${message}\n`);
  process.exit(1);
}

async function serve(config: Config): Promise<void> {
  const logger = createLogger(config);
  const server = await startServer(config, logger, (login) => {
    // Printed once on the console, never into the log stream.
    process.stdout.write(
      `\ncrmkit: first start, created operator ${login.email} with password ${login.password}\n` +
        'crmkit: sign in at the dashboard and add your own operator; this password is not shown again.\n\n',
    );
  });
  logger.info({ url: server.url, store: server.store.kind, pid: process.pid }, 'crmkit listening');
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    // A close that waits on something that never ends must not keep the process alive: an orchestrator
    // would kill it anyway, without a word. The line names the stages still running (docs/reliability.md
    // "Shutdown").
    setTimeout(() => {
      const waitingOn = server.shutdown.waiting();
      logger.error({ signal, graceMs: config.shutdownGraceMs, waitingOn }, 'shutdown did not finish in time: exiting');
      process.exit(1);
    }, config.shutdownGraceMs).unref();
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

/** WORKERS=N: N processes on one port (node:cluster); the primary only restarts workers that die. */
function runCluster(config: Config): void {
  if (cluster.isPrimary && config.workers > 1) {
    for (let i = 0; i < config.workers; i++) cluster.fork();
    cluster.on('exit', (worker, code, signal) => {
      if (signal !== 'SIGTERM' && code !== 0) cluster.fork();
      void worker;
    });
    const stop = () => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    return;
  }
  serve(config).catch(startFailure);
}

function startFailure(error: unknown): never {
  if (error instanceof SchemaTooNewError) fail(error.message);
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE') fail('the port is already in use (set PORT)');
  if (code === 'ECONNREFUSED') fail('cannot reach the database at DATABASE_URL');
  fail(error instanceof Error ? error.message : String(error));
}

try {
  runCluster(loadConfig());
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}
