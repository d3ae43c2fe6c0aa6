import { readFileSync } from 'node:fs';
import type { Deps } from '../deps.js';
import type { LegacyFeature as Feature } from '../feature.js';
import { SCHEMA_VERSION } from '../storage/migrate.js';

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

export const VERSION = packageVersion();

/** /healthz: the process is up (and which build); /readyz: the store answers. */
export function healthFeature(deps: Deps): Feature {
  return {
    open(app) {
      app.get('/healthz', async () => ({ status: 'ok', version: VERSION, schema: SCHEMA_VERSION, store: deps.store.kind }));
      app.get('/readyz', async (_request, reply) => {
        try {
          await deps.store.ping();
          return { status: 'ready' };
        } catch {
          return reply.code(503).send({ status: 'unavailable' });
        }
      });
    },
  };
}
