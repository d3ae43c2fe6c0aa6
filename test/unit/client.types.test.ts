import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { openApiDocument } from '../../src/features.js';
import { CLIENT_TYPES_FILE, renderClientTypes } from '../../scripts/client-types.js';

it('client/src/api-types.ts is what the OpenAPI document generates (run npm run generate:client after a schema change)', async () => {
  expect(readFileSync(CLIENT_TYPES_FILE, 'utf8')).toBe(
    await renderClientTypes(openApiDocument({ config: testConfig() })),
  );
});
