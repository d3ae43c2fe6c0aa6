import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

/**
 * The servers and CLIs that the process, e2e and reliability tests spawn run from a build of `src/` made
 * once per run: every file transpiled by esbuild, file by file as tsx does it, no bundling. A spawned
 * server then loads plain JavaScript instead of going through tsx's loader, which cost about 1.4 s of CPU
 * per start (docs/decisions.md "The test loop, fifth cut").
 */
export async function buildServer(root: string): Promise<{ dir: string; remove: () => void }> {
  // Under the project root, so that the build finds package.json, src/'s pages and node_modules above it.
  mkdirSync(join(root, '.test-artifacts'), { recursive: true });
  const dir = mkdtempSync(join(root, '.test-artifacts', 'server-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    await build({
      entryPoints: listTypeScript(join(root, 'src')),
      outbase: join(root, 'src'),
      outdir: dir,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      logLevel: 'error',
    });
  } catch (error) {
    remove();
    throw error;
  }
  return { dir, remove };
}

function listTypeScript(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}
