import type { ApiSection } from './operation.js';

/** This document and its reference page, described in themselves. */
export const referenceApi: ApiSection = {
  tag: { name: 'Reference', description: 'This document and the API reference page.' },
  operations: [
    {
      method: 'get', path: '/openapi.json', operationId: 'openApiDocument', guard: 'open', summary: 'This OpenAPI 3.1 document',
      description: 'Generated at start from the schemas the server validates with.',
      answers: [{ status: 200, description: 'The document.', schema: { type: 'object' } }, { status: 304, description: 'Not modified (If-None-Match).' }],
    },
    {
      method: 'get', path: '/docs', operationId: 'referencePage', guard: 'open', summary: 'The API reference page',
      answers: [{ status: 200, description: 'The page; it renders /openapi.json.', mediaType: 'text/html', schema: { type: 'string' } }, { status: 304, description: 'Not modified (If-None-Match).' }],
    },
    {
      method: 'get', path: '/docs/*', operationId: 'referenceAsset', guard: 'open', pathParams: { file: 'A file of the page, like docs.js.' },
      summary: 'A file of the reference page',
      answers: [{ status: 200, description: 'The file, with its type.', mediaType: '*/*', schema: { type: 'string' } }, { status: 304, description: 'Not modified (If-None-Match).' }],
      errors: ['NOT_FOUND'],
    },
  ],
};
