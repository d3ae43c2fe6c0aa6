import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors/app-error.js';
import type { Feature } from '../../feature.js';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

interface Asset {
  body: Buffer;
  contentType: string;
  etag: string;
}

/**
 * The page's files live in src/ and are not copied by the TypeScript build, so both
 * src/operator/dashboard (tsx) and dist/operator/dashboard (built) find them from the package root.
 */
export function dashboardPublicDir(fromUrl: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(fromUrl));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'src', 'operator', 'dashboard', 'public');
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`dashboard: no package.json above ${fromUrl}`);
    dir = parent;
  }
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return listFiles(full);
    return entry.isFile() ? [full] : [];
  });
}

/** Every servable file, keyed by its path below public/ with "/" separators; nothing else is reachable. */
export function loadAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const file of listFiles(dir)) {
    const contentType = CONTENT_TYPES[extname(file).toLowerCase()];
    if (!contentType) continue;
    const body = readFileSync(file);
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    assets.set(relative(dir, file).split(sep).join('/'), { body, contentType, etag });
  }
  return assets;
}

function send(request: FastifyRequest, reply: FastifyReply, asset: Asset): FastifyReply {
  // Revalidate on every load so an upgraded server never pairs a new page with old modules.
  reply.header('cache-control', 'no-cache').header('etag', asset.etag);
  if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
  return reply.type(asset.contentType).send(asset.body);
}

export async function registerDashboardRoutes(app: FastifyInstance): Promise<void> {
  const assets = loadAssets(dashboardPublicDir());
  const index = assets.get('index.html');
  if (!index) throw new Error('dashboard: index.html is missing from the public folder');

  app.get('/', async (request, reply) => send(request, reply, index));
  app.get('/assets/*', async (request, reply) => {
    const name = (request.params as { '*': string })['*'];
    const asset = name === 'index.html' ? undefined : assets.get(name);
    if (!asset) throw new AppError('NOT_FOUND', 'No such asset');
    return send(request, reply, asset);
  });
}

/** The page in app.ts's feature list: open routes (no guard); its API calls carry the operator session. */
export function dashboardFeature(): Feature {
  return { open: registerDashboardRoutes };
}
