// @module-tag smoke
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, spawnServer, type ServerProcess } from '../helpers/process.js';
import { randomKey } from '../helpers/seed.js';
import { TEST_ADMIN, tempDataDir } from '../helpers/stores.js';

// The README's "Integrate in five minutes" runs as written (only the placeholders replaced) against a
// real server process, so the curl session and the client example cannot rot.

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

function snippets(): { sh: string; ts: string } {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = /^## Integrate in five minutes$([\s\S]*?)^## /m.exec(readme)?.[1];
  if (!section) throw new Error('README.md has no "## Integrate in five minutes" section');
  const block = (lang: string) => {
    const blocks = [...section.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((m) => m[1]!);
    if (blocks.length !== 1) throw new Error(`expected one ${lang} block in the section, found ${blocks.length}`);
    return blocks[0]!;
  };
  return { sh: block('sh'), ts: block('ts') };
}

interface Placeholders {
  base: string;
  urlKey: string;
  appId: string;
  appSecret: string;
}

/** The shell variables at the top of the curl session, set to the real values. */
function fillShell(script: string, p: Placeholders): string {
  const values: Record<string, string> = { BASE: p.base, URL_KEY: p.urlKey, APP_ID: p.appId, APP_SECRET: p.appSecret };
  let replaced = 0;
  const filled = script.replace(/^(BASE|URL_KEY|APP_ID|APP_SECRET)=\S+/gm, (_line, name: string) => {
    replaced += 1;
    return `${name}=${values[name]}`;
  });
  expect(replaced).toBe(4);
  return filled;
}

/** The package name becomes the path of the client's source; the createClient options become the real values. */
function fillTypeScript(source: string, p: Placeholders): string {
  const values: Record<string, string> = { baseUrl: p.base, urlKey: p.urlKey, appId: p.appId, appSecret: p.appSecret };
  let replaced = 0;
  const filled = source
    .replace("from '@crmkit/client'", () => `from '${join(root, 'client/src/index.ts')}'`)
    .replace(/^(\s+)(baseUrl|urlKey|appId|appSecret): '[^']*',$/gm, (_line, indent: string, name: string) => {
      replaced += 1;
      return `${indent}${name}: ${JSON.stringify(values[name])},`;
    });
  expect(replaced).toBe(4);
  expect(filled).not.toContain('@crmkit/client');
  return filled;
}

describe('README: Integrate in five minutes', () => {
  let server: ServerProcess;
  let p: Placeholders;
  beforeAll(async () => {
    server = await spawnServer({
      DATA_DIR: tempDataDir(),
      ADMIN_EMAIL: TEST_ADMIN.email,
      ADMIN_PASSWORD: TEST_ADMIN.password,
    });
    // Step 2, as the dashboard does it: a business, an app, attached.
    const operator = (await http(server.url, 'POST', '/authentication', { body: { strategy: 'local', ...TEST_ADMIN } }))
      .body.accessToken as string;
    const urlKey = randomKey('asha');
    expect(
      (
        await http(server.url, 'POST', '/admin/v1/businesses', {
          token: operator,
          body: { name: 'Asha Traders', country: 'IN', urlKey },
        })
      ).status,
    ).toBe(201);
    const app = (await http(server.url, 'POST', '/admin/v1/apps', { token: operator, body: { name: 'Storefront' } }))
      .body.data;
    expect(
      (await http(server.url, 'PUT', `/admin/v1/apps/${app.appId}/businesses/${urlKey}`, { token: operator })).status,
    ).toBe(200);
    const pipelines = {
      pipelines: [
        {
          name: 'Sales',
          isPrimary: true,
          stages: [
            { name: 'New', state: 'NEW' },
            { name: 'Won', state: 'CLOSED', reasons: ['price'] },
          ],
        },
      ],
      stageReasons: [{ key: 'price', label: 'Good price' }],
    };
    expect(
      (await http(server.url, 'PUT', `/admin/v1/businesses/${urlKey}/pipelines`, { token: operator, body: pipelines }))
        .status,
    ).toBe(200);
    p = { base: server.url, urlKey, appId: app.appId, appSecret: app.appSecret };
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('the curl session gets a token, lists the pipelines, creates the client and reads it back, creates a lead, moves it and lists it', async () => {
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', fillShell(snippets().sh, p)]);
    const [pipelines, created, fetched, lead, moved, listed] = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lead.data).toMatchObject({
      externalId: 'web-form-42',
      pipeline: 'Sales',
      stage: 'New',
      status: 'NEW',
      contact: { name: 'Asha Rao' },
    });
    expect(moved.data).toMatchObject({
      leadId: lead.data.leadId,
      stage: 'Won',
      status: 'CLOSED',
      stageReasons: ['Good price'],
    });
    expect(listed.data[0].items).toEqual([moved.data]);
    expect(pipelines.data[0].pipelines[0].name).toBe('Sales');
    expect(created.success).toBe(true);
    expect(created.data).toMatchObject({
      clientId: 'crm-000123',
      name: 'Asha Traders',
      panNumber: 'AAPFU0939F',
      gstState: '27',
      phone: '+919820012345',
    });
    expect(fetched.data).toEqual(created.data);
    const again = await run('bash', ['-euo', 'pipefail', '-c', fillShell(snippets().sh, p)]);
    expect(JSON.parse(again.stdout.trim().split('\n')[1]!).data.idempotent).toBe(true);
    expect(JSON.parse(again.stdout.trim().split('\n')[3]!).data.idempotent).toBe(true);
  });

  it('the TypeScript snippet type-checks under strict settings, does the same with the client, and prints a typed 404', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crmkit-readme-'));
    const file = join(dir, 'integrate.mts');
    writeFileSync(file, fillTypeScript(snippets().ts, p));
    await run(process.execPath, [
      join(root, 'node_modules/typescript/bin/tsc'),
      '--noEmit',
      '--strict',
      '--allowImportingTsExtensions',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      '--skipLibCheck',
      '--typeRoots',
      join(root, 'node_modules/@types'),
      '--types',
      'node',
      file,
    ]);
    const { stdout } = await run(process.execPath, ['--import', 'tsx', file], { cwd: root });
    expect(stdout.trim().split('\n')).toEqual([
      'pipelines: Sales',
      'derived from the GSTIN: AAPFU0939F 27',
      'lead: CLOSED Good price',
      'invoice: INV-0001 2360 balance: 2360 1000',
      'not found: 404 CLIENT_NOT_FOUND',
    ]);
  });
});
