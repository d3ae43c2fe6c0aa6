import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors/app-error.js';
import type { Feature } from '../../feature.js';
import { loadAssets, packageRoot, sendAsset } from '../../http/static-assets.js';

/** The page's files, found from the package root whether running from src/ or dist/. */
export function dashboardPublicDir(fromUrl: string = import.meta.url): string {
  return join(packageRoot(fromUrl), 'src', 'operator', 'dashboard', 'public');
}

export async function registerDashboardRoutes(app: FastifyInstance): Promise<void> {
  const assets = loadAssets(dashboardPublicDir());
  const index = assets.get('index.html');
  if (!index) throw new Error('dashboard: index.html is missing from the public folder');

  app.get('/', async (request, reply) => sendAsset(request, reply, index));
  app.get('/assets/*', async (request, reply) => {
    const name = (request.params as { '*': string })['*'];
    const asset = name === 'index.html' ? undefined : assets.get(name);
    if (!asset) throw new AppError('NOT_FOUND', 'No such asset');
    return sendAsset(request, reply, asset);
  });
}

/** The page in app.ts's feature list: open routes (no guard); its API calls carry the operator session. */
export function dashboardFeature(): Feature {
  return { open: registerDashboardRoutes };
}
