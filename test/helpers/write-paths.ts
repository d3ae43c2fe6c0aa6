import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'vitest';
import type { OpenApiDocument } from './openapi.js';

/**
 * The PgBouncer pass (scripts/test.mjs) must drive every write path of the API through the pooler. With
 * TEST_WRITES_SEEN naming a folder, every write that call() sees succeed is appended there with the test
 * file that sent it, beside the document's list of write operations; the runner compares the two.
 */
const folder = process.env.TEST_WRITES_SEEN;
const WRITES = ['post', 'put', 'patch', 'delete'];
let listed = false;

/** `METHOD /template` of every documented write that can succeed (405 and 501 aliases are no write paths). */
export function documentedWrites(doc: OpenApiDocument): string[] {
  return Object.entries(doc.paths).flatMap(([template, item]) =>
    Object.entries(item)
      .filter(
        ([method, op]) => WRITES.includes(method) && Object.keys(op.responses).some((status) => status.startsWith('2')),
      )
      .map(([method]) => `${method.toUpperCase()} ${template}`),
  );
}

export function recordWrite(doc: OpenApiDocument, template: string | undefined, method: string, status: number): void {
  if (!folder || !template || !WRITES.includes(method.toLowerCase()) || status < 200 || status > 299) return;
  if (!listed) {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'documented.txt'), `${documentedWrites(doc).join('\n')}\n`);
    listed = true;
  }
  const file = relative(process.cwd(), expect.getState().testPath ?? 'unknown');
  appendFileSync(join(folder, `seen-${process.pid}.tsv`), `${file}\t${method.toUpperCase()} ${template}\n`);
}
