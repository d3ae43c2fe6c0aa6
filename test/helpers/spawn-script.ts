import { join } from 'node:path';
import { inject } from 'vitest';

/**
 * What `node` runs for a script of `src/` (`src/main.ts`, `src/cli.ts`) in a test: its file in this run's
 * build (test/helpers/server-build.ts, made by the global setup) when there is one, else the source
 * through tsx (a test's own script, or a run without the build). Apart from server-build.ts because the
 * global setup, which imports that one, runs outside a test worker, where `inject` cannot be called.
 */
export function nodeArgsFor(script: string): string[] {
  const built = inject('serverBuild');
  const inSrc = /^src\/(.+)\.ts$/.exec(script);
  if (built && inSrc) return [join(built, `${inSrc[1]}.js`)];
  return ['--import', 'tsx', script];
}

/** The built file of `src/<name>.ts`, for a tool that starts the server itself (the bench). */
export const builtScript = (name: string): string => join(inject('serverBuild'), `${name}.js`);
