// Which test files a pass of scripts/test.mjs runs beyond the main one is declared by the files
// themselves, with vitest's own file-level tag comment (`// @module-tag pooled`), never by a list kept in
// the runner. vitest knows the same tags (vitest.config.ts), so `--tags-filter` works on them too.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The tags, what each one means, and so which pass runs the file again. */
export const TEST_TAGS = [
  {
    name: 'dates',
    description: 'Its answers depend on calendar dates or time zones: run once more with TZ=Asia/Kolkata.',
  },
  {
    name: 'pooled',
    description:
      'PostgreSQL behaviour a pooler can change (sessions, locks, batching) or a write path: run once more through PgBouncer.',
  },
  {
    name: 'isolated',
    description:
      'Cannot share a worker with other files (a module mock, a process-wide setting): runs with a fresh module graph.',
  },
  {
    name: 'smoke',
    description:
      "What differs between Node versions (driver, start, the README's commands): run on the second runtime.",
  },
];

const TAG_LINE = /^\/\/ @module-tag ([\w-]+)\s*$/gm;

function testFiles(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The test files under `root` that declare `tag`, sorted. */
export function filesTagged(tag, root = 'test') {
  if (!TEST_TAGS.some((t) => t.name === tag)) throw new Error(`unknown test tag ${tag}`);
  return testFiles(root)
    .filter((file) => [...readFileSync(file, 'utf8').matchAll(TAG_LINE)].some((m) => m[1] === tag))
    .sort();
}
