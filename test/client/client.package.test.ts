import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';

const clientDir = new URL('../../client/', import.meta.url);

it('@crmkit/client builds with its own tsconfig (no runtime dependency), and the built entry point loads', async () => {
  const manifest = JSON.parse(readFileSync(new URL('package.json', clientDir), 'utf8')) as Record<string, any>;
  expect(manifest.name).toBe('@crmkit/client');
  expect(manifest.type).toBe('module');
  expect(manifest.dependencies ?? {}).toEqual({});
  const outDir = mkdtempSync(join(tmpdir(), 'crmkit-client-'));
  execFileSync(
    process.execPath,
    ['node_modules/typescript/bin/tsc', '-p', 'client/tsconfig.json', '--outDir', outDir],
    { stdio: 'pipe' },
  );
  for (const file of ['index.js', 'index.d.ts', 'api-types.d.ts'])
    expect(existsSync(join(outDir, file)), file).toBe(true);
  expect(manifest.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' });
  const built = (await import(pathToFileURL(join(outDir, 'index.js')).href)) as Record<string, unknown>;
  expect(Object.keys(built).sort()).toEqual(['CrmkitError', 'CrmkitNetworkError', 'createClient']);
}, 60_000);
