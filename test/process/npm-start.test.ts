// @module-tag smoke
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { freePort } from '../helpers/process.js';
import { TEST_ADMIN, tempDataDir } from '../helpers/stores.js';

const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;

it('npm start runs the built server and installs nothing (issue 10)', async () => {
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
}, 120_000);
