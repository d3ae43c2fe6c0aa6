import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { EVENT_TYPES } from '../../src/webhooks/event-types.js';

it('docs/webhooks.md lists exactly the event types of the one table', () => {
  const page = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
  const table = /<!-- event-types:start -->\n([\s\S]*?)<!-- event-types:end -->/.exec(page)?.[1];
  const expected = [
    '| Type | Emitted by | When, and what `data` is |',
    '|---|---|---|',
    ...EVENT_TYPES.map((e) => `| \`${e.type}\` | ${e.emittedBy} | ${e.description} |`),
  ].join('\n');
  expect(table?.trim()).toBe(expected);
});
