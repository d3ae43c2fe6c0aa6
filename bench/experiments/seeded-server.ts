/**
 * One server of a build, started as `npm start` starts it and seeded as the bench seeds, for the
 * tools that load a server outside `npm run bench` (compare.ts, threads.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedBench, type Seeded } from '../seed.js';
import { SERVER_FLAGS, serverEnv, waitFor } from '../server.js';
import { hookedBusiness } from '../webhooks.js';

export interface SeededServer {
  child: ChildProcess;
  url: string;
  seeded: Seeded;
}

export interface SeededServerOptions {
  /** PostgreSQL database to use; else a new embedded store in a temporary folder. */
  databaseUrl?: string;
  /** Also a business with one webhook endpoint, for the webhook scenario. */
  hooked?: boolean;
  /** More flags for the server's node (e.g. `--cpu-prof`). */
  nodeFlags?: string[];
}

export async function startSeededServer(
  dist: string,
  port: number,
  options: SeededServerOptions = {},
): Promise<SeededServer> {
  const env = {
    // As in `npm run bench`: events are written, none delivered (the webhook scenario prices the outbox's write).
    ...serverEnv(port),
    WEBHOOKS_DELIVER: 'false',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    ...(options.databaseUrl
      ? { DATABASE_URL: options.databaseUrl, PG_POOL_SIZE: '20' }
      : { DATA_DIR: mkdtempSync(join(tmpdir(), 'crmkit-bench-tool-')) }),
  };
  const child = spawn(process.execPath, [...SERVER_FLAGS, ...(options.nodeFlags ?? []), join(dist, 'main.js')], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${url}/healthz`, child);
    const seeded = await seedBench(url, Number(process.env.BENCH_CLIENTS ?? 1000));
    // Nothing listens there: with delivery off, nothing is sent.
    if (options.hooked) seeded.hookedUrlKey = await hookedBusiness(url, seeded, 'http://127.0.0.1:9/');
    return { child, url, seeded };
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
}
