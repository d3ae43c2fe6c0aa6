import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Feature } from '../../feature.js';
import { packageRoot, servePage } from '../../http/static-assets.js';

/** The page's files, found from the package root whether running from src/ or dist/. */
export function dashboardPublicDir(fromUrl: string = import.meta.url): string {
  return join(packageRoot(fromUrl), 'src', 'operator', 'dashboard', 'public');
}

export async function registerDashboardRoutes(app: FastifyInstance): Promise<void> {
  servePage(app, dashboardPublicDir(), '/', '/assets/');
}

/** The page in app.ts's feature list: open routes (no guard); its API calls carry the operator session. */
export function dashboardFeature(): Feature {
  return { open: registerDashboardRoutes };
}
