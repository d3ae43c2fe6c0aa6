import { join } from 'node:path';
import { feature } from '../../feature.js';
import { packageRoot, pageFiles } from '../../http/static-assets.js';
import { pageOperations, type ApiSection, type PageFiles } from '../../openapi/operation.js';

/** The page's files, found from the package root whether running from src/ or dist/. */
export function dashboardPublicDir(fromUrl: string = import.meta.url): string {
  return join(packageRoot(fromUrl), 'src', 'operator', 'dashboard', 'public');
}

/** The dashboard page: HTML and static files (open routes, no guard); its API calls carry the operator session. */
export const dashboardApi: ApiSection<PageFiles> = {
  tag: { name: 'Dashboard', description: 'The operator dashboard page and its files.' },
  operations: pageOperations<PageFiles>(
    {
      id: 'dashboard',
      path: '/',
      filesPrefix: '/assets/',
      summary: 'The operator dashboard',
      description: 'The page.',
      sampleFile: 'app.js',
    },
    (files) => files,
  ),
};

export const dashboardFeature = feature({ sections: [dashboardApi], context: () => pageFiles(dashboardPublicDir()) });
