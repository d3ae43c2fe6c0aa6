import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { openApiDocument } from '../../src/features.js';
import {
  ANSWER_TYPES_FILE,
  CLIENT_TYPES_FILE,
  OPERATOR_TYPES_FILE,
  renderAnswerTypes,
  renderClientTypes,
  renderOperatorTypes,
} from '../../scripts/client-types.js';

it('client/src/api-types.ts is what the OpenAPI document generates (run npm run generate:client after a schema change)', async () => {
  expect(readFileSync(CLIENT_TYPES_FILE, 'utf8')).toBe(
    await renderClientTypes(openApiDocument({ config: testConfig() })),
  );
});

it("src/openapi/answer-types.ts, the presenters' answer types, is what the document generates (npm run generate:client)", async () => {
  expect(readFileSync(ANSWER_TYPES_FILE, 'utf8')).toBe(
    await renderAnswerTypes(openApiDocument({ config: testConfig() })),
  );
});

it('the operator answers the dashboard reads (operator-api-types.ts) are what the document generates', async () => {
  expect(readFileSync(OPERATOR_TYPES_FILE, 'utf8')).toBe(
    await renderOperatorTypes(openApiDocument({ config: testConfig() })),
  );
});
