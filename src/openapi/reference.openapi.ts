import { pageOperations, type ApiSection } from './operation.js';

/** This document and its reference page, described in themselves. */
export const referenceApi: ApiSection = {
  tag: { name: 'Reference', description: 'This document and the API reference page.' },
  operations: [
    {
      method: 'get', path: '/openapi.json', operationId: 'openApiDocument', guard: 'open', summary: 'This OpenAPI 3.1 document',
      description: 'Generated at start from the schemas the server validates with.',
      answers: [{ status: 200, description: 'The document.', schema: { type: 'object' } }, { status: 304, description: 'Not modified (If-None-Match).' }],
    },
    ...pageOperations({ id: 'reference', path: '/docs', filesPrefix: '/docs/', summary: 'The API reference page', description: 'The page; it renders /openapi.json.', sampleFile: 'docs.js' }),
  ],
};
