// @module-tag smoke
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { expect, it } from 'vitest';
import { freePort } from '../helpers/process.js';
import { TEST_ADMIN, tempDataDir } from '../helpers/stores.js';

/**
 * The build writes `dist/` and `npm start` runs it: two runs of this file at once (the main pass and the
 * smoke pass run side by side, scripts/test.mjs) would start a server from a half-written build. A
 * directory made with mkdir is the lock (atomic); one older than the test's timeout is a crashed run's.
 */
async function holdingBuildLock<T>(work: () => Promise<T>): Promise<T> {
  const lock = '.test-artifacts/npm-start.lock';
  mkdirSync('.test-artifacts', { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 120_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;

it(
  'npm start runs the built server and installs nothing (issue 10)',
  () =>
    holdingBuildLock(async () => {
      expect(scripts.start).not.toMatch(/\b(npm (ci|install|i)\b|setup\.mjs|apt-get)/);
      const built = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
        encoding: 'utf8',
      });
      expect(built.status, built.stdout + built.stderr).toBe(0);

      const port = await freePort();
      const child = spawn('npm', ['start', '--silent'], {
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: tempDataDir(),
          LOG_LEVEL: 'warn',
          ADMIN_EMAIL: TEST_ADMIN.email,
          ADMIN_PASSWORD: TEST_ADMIN.password,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      let output = '';
      child.stdout!.on('data', (d) => (output += d));
      child.stderr!.on('data', (d) => (output += d));
      try {
        let health: Response | undefined;
        for (let i = 0; i < 150 && !health; i++) {
          health = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
          if (!health) await new Promise((r) => setTimeout(r, 100));
        }
        expect(health?.status, output).toBe(200);
        expect(((await health!.json()) as { store: string }).store).toBe('sqlite');
      } finally {
        // npm runs the server through a shell: end the whole group.
        process.kill(-child.pid!, 'SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    }),
  240_000,
);
