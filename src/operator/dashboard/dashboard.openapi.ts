import type { ApiSection } from '../../openapi/operation.js';

/** The dashboard page in the OpenAPI document: it is HTML and static files, calling the operator API. */
export const dashboardApi: ApiSection = {
  tag: { name: 'Dashboard', description: 'The operator dashboard page and its files.' },
  operations: [
    {
      method: 'get', path: '/', operationId: 'dashboardPage', guard: 'open', summary: 'The operator dashboard',
      answers: [{ status: 200, description: 'The page.', mediaType: 'text/html', schema: { type: 'string' } }, { status: 304, description: 'Not modified (If-None-Match).' }],
    },
    {
      method: 'get', path: '/assets/*', operationId: 'dashboardAsset', guard: 'open', pathParams: { file: 'A file of the page, like app.js.' },
      summary: 'A file of the dashboard page',
      answers: [{ status: 200, description: 'The file, with its type.', mediaType: '*/*', schema: { type: 'string' } }, { status: 304, description: 'Not modified (If-None-Match).' }],
      errors: ['NOT_FOUND'],
    },
  ],
};
