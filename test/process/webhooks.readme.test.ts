import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { freePort, http, spawnServer } from '../helpers/process.js';
import { randomKey } from '../helpers/seed.js';
import { TEST_ADMIN, tempDataDir } from '../helpers/stores.js';

// The README's webhook receiver runs as written (only its port changed) against a real server process.

const root = fileURLToPath(new URL('../../', import.meta.url));

function receiverSource(port: number): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = /^## Integrate in five minutes$([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
  const blocks = [...section.matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  expect(blocks).toHaveLength(1);
  expect(blocks[0]).toContain('.listen(4000);');
  return blocks[0]!.replace('.listen(4000);', `.listen(${port}, '127.0.0.1');`);
}

it('the README receiver verifies and prints a client.created event sent by a real server', async () => {
  const port = await freePort();
  // Inside the repository, so that `standardwebhooks` resolves from its node_modules.
  const dir = mkdtempSync(join(root, 'node_modules', '.readme-receiver-'));
  const file = join(dir, 'receive.mjs');
  writeFileSync(file, receiverSource(port));
  const server = await spawnServer({
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    DATA_DIR: tempDataDir(),
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    WEBHOOKS_RETRY_BASE_MS: '100',
  });
  let receiver: ReturnType<typeof spawn> | undefined;
  try {
    const operator = (await http(server.url, 'POST', '/authentication', { body: { strategy: 'local', ...TEST_ADMIN } }))
      .body.accessToken;
    const urlKey = randomKey('readme');
    await http(server.url, 'POST', '/admin/v1/businesses', {
      token: operator,
      body: { name: urlKey, country: 'IN', urlKey },
    });
    const endpoint = await http(server.url, 'POST', `/admin/v1/businesses/${urlKey}/webhooks`, {
      token: operator,
      body: { url: `http://127.0.0.1:${port}/`, eventTypes: ['client.created'] },
    });
    let output = '';
    receiver = spawn(process.execPath, [file], {
      env: { ...process.env, WEBHOOK_SECRET: endpoint.body.data.secret },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    receiver.stdout!.on('data', (d) => (output += d));
    receiver.stderr!.on('data', (d) => (output += d));
    await new Promise((r) => setTimeout(r, 300));
    const made = await http(server.url, 'POST', `/admin/v1/businesses/${urlKey}/clients`, {
      token: operator,
      body: { name: 'Readme', source: 'INVOICE' },
    });
    expect(made.status).toBe(201);
    // (If the receiver was not listening yet, the first attempt failed and a retry follows.)
    // A dashboard client has no clientId: the receiver prints `received client.created null`.
    const deadline = Date.now() + 15_000;
    while (!output.includes('received client.created') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(output).toContain('received client.created null');
    const log = await http(
      server.url,
      'GET',
      `/admin/v1/businesses/${urlKey}/webhooks/${endpoint.body.data.id}/deliveries`,
      { token: operator },
    );
    expect(log.body.data.attempts[0]).toMatchObject({ statusCode: 204, eventType: 'client.created' });
  } finally {
    receiver?.kill('SIGKILL');
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
