import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PageFiles } from '../openapi/operation.js';
import { AppError } from '../errors/app-error.js';
import { PAGE_SECURITY_POLICY } from './http-basics.js';

/**
 * Static files shipped with the service (the dashboard, the API reference page), read once per process:
 * they are part of the build. Several apps in one process (the test suite builds hundreds) share them;
 * reading and hashing them was about 20 ms of each app's start.
 */

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

export interface Asset {
  body: Buffer;
  contentType: string;
  etag: string;
}

/**
 * Page files live in src/ and are not copied by the TypeScript build, so code running from src/ (tsx)
 * and from dist/ (built) both find them from the package root: the first folder up with a package.json.
 */
export function packageRoot(fromUrl: string): string {
  let dir = dirname(fileURLToPath(fromUrl));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fromUrl}`);
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

export function assetOf(body: Buffer, contentType: string): Asset {
  return { body, contentType, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/** Every servable file, keyed by its path below `dir` with "/" separators; nothing else is reachable. */
function loadAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const file of listFiles(dir)) {
    const contentType = CONTENT_TYPES[extname(file).toLowerCase()];
    if (contentType) assets.set(relative(dir, file).split(sep).join('/'), assetOf(readFileSync(file), contentType));
  }
  return assets;
}

export function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: Asset): FastifyReply {
  // Revalidate on every load so an upgraded server never pairs a new page with old modules.
  reply.header('cache-control', 'no-cache').header('etag', asset.etag);
  // A page's policy goes on its 304 too: the browser keeps the headers of a revalidation with the page.
  if (asset.contentType.startsWith('text/html')) reply.header('content-security-policy', PAGE_SECURITY_POLICY);
  if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
  return reply.type(asset.contentType).send(asset.body);
}

/** A page's two handlers: its index.html, and its other files by path (nothing else: 404). Reads the files once. */
const loaded = new Map<string, Map<string, Asset>>();

export function pageFiles(dir: string): PageFiles {
  let assets = loaded.get(dir);
  if (!assets) loaded.set(dir, (assets = loadAssets(dir)));
  const index = assets.get('index.html');
  if (!index) throw new Error(`${dir}: index.html is missing`);
  return {
    page: async (request, reply) => sendAsset(request, reply, index),
    file: async (request, reply) => {
      const name = request.params['*'];
      const asset = name === 'index.html' ? undefined : assets.get(name);
      if (!asset) throw new AppError('NOT_FOUND', 'No such asset');
      return sendAsset(request, reply, asset);
    },
  };
}
