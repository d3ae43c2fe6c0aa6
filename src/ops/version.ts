import { readFileSync } from 'node:fs';

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
      .version;
  } catch {
    return 'unknown';
  }
}

/** This build's version, from package.json. */
export const VERSION = packageVersion();
