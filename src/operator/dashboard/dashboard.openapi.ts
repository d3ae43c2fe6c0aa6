import { pageOperations, type ApiSection } from '../../openapi/operation.js';

/** The dashboard page in the OpenAPI document: it is HTML and static files, calling the operator API. */
export const dashboardApi: ApiSection = {
  tag: { name: 'Dashboard', description: 'The operator dashboard page and its files.' },
  operations: pageOperations({ id: 'dashboard', path: '/', filesPrefix: '/assets/', summary: 'The operator dashboard', description: 'The page.', sampleFile: 'app.js' }),
};
