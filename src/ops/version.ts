import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../http/static-assets.js';

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(packageRoot(import.meta.url), 'package.json'), 'utf8')) as { version: string })
      .version;
  } catch {
    return 'unknown';
  }
}

/** This build's version, from package.json. */
export const VERSION = packageVersion();
