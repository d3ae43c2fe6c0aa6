import { join } from 'node:path';
import type { Deps } from '../deps.js';
import { feature } from '../feature.js';
import { assetOf, packageRoot, pageFiles, sendAsset, type Asset } from '../http/static-assets.js';
import { VERSION } from '../ops/version.js';
import type { JsonSchema } from '../validation/json-schema.js';
import { buildOpenApiDocument } from './openapi.document.js';
import { pageOperations, type ApiSection, type DocSection, type PageFiles } from './operation.js';

interface ReferenceContext {
  /**
   * Built and serialised once, when first asked for: it is static. Not at start: building and hashing its
   * 1.1 MB took about 50 ms of each app's start, paid by every test app and by servers nobody asks for it.
   */
  document: () => Asset;
  files: PageFiles;
}

/** This document and its reference page, described in themselves. */
export const referenceApi: ApiSection<ReferenceContext> = {
  tag: { name: 'Reference', description: 'This document and the API reference page.' },
  operations: [
    {
      method: 'get',
      path: '/openapi.json',
      operationId: 'openApiDocument',
      guard: 'open',
      summary: 'This OpenAPI 3.1 document',
      description: 'Generated at start from the schemas the server validates with.',
      answers: [
        { status: 200, description: 'The document.', schema: { type: 'object' } },
        { status: 304, description: 'Not modified (If-None-Match).' },
      ],
      handler:
        ({ document }) =>
        async (request, reply) =>
          sendAsset(request, reply, document()),
    },
    ...pageOperations<ReferenceContext>(
      {
        id: 'reference',
        path: '/docs',
        filesPrefix: '/docs/',
        summary: 'The API reference page',
        description: 'The page; it renders /openapi.json.',
        sampleFile: 'docs.js',
      },
      ({ files }) => files,
    ),
  ],
};

/** The document of these sections (src/features.ts gives them in order). */
export function openApiDocumentOf(sections: readonly DocSection[], deps: Pick<Deps, 'config'>): JsonSchema {
  return buildOpenApiDocument(sections, {
    version: VERSION,
    audience: deps.config.jwtAudience,
    idempotencyKeyHours: deps.config.idempotencyKeyRetentionHours,
    idempotencyKeyLeaseMs: deps.config.idempotencyKeyLeaseMs,
  });
}

/** `/openapi.json` and the `/docs` page that renders it. */
export const openApiFeature = feature({
  sections: [referenceApi],
  context: ({ deps, sections }): ReferenceContext => {
    let document: Asset | undefined;
    return {
      document: () =>
        (document ??= assetOf(
          Buffer.from(JSON.stringify(openApiDocumentOf(sections, deps))),
          'application/json; charset=utf-8',
        )),
      files: pageFiles(join(packageRoot(import.meta.url), 'src', 'openapi', 'public')),
    };
  },
});
