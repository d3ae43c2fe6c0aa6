import { configDefaults, defineConfig } from 'vitest/config';
import { TEST_TAGS, filesTagged } from './scripts/test-tags.mjs';

// Everything in UTC; the suites whose answers depend on dates (tagged `dates`) once more in Asia/Kolkata
// (UTC+05:30), so that no date rule leans on the machine's zone. Spawned servers run in UTC.
//
// A worker runs file after file without a fresh module graph (`isolate: false`): loading the app's modules
// took seconds per file, paid again by each of ~150 files. The files that cannot share a worker (a module
// mock, a process-wide setting) declare `// @module-tag isolated` and run in a project of their own with
// a fresh graph each; the runner picks both with `--project 'UTC*'` (docs/decisions.md "The test loop").
const isolated = filesTagged('isolated');
const ALL = ['test/**/*.test.ts'];

/** A zone's projects: the shared-worker one, and the isolated files' own when it has any. */
function inZone(name: string, TZ: string, include: string[]) {
  const own = include === ALL ? isolated : include.filter((file) => isolated.includes(file));
  return [
    {
      extends: true,
      test: { name, include, exclude: [...configDefaults.exclude, ...isolated], isolate: false, env: { TZ } },
    },
    ...(own.length > 0
      ? [{ extends: true, test: { name: `${name} isolated`, include: own, isolate: true, env: { TZ } } }]
      : []),
  ];
}

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: running files in parallel threads mostly adds contention on the stores.
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
    tags: TEST_TAGS,
    // Migrates one embedded store per run, which each test app copies (test/helpers/global-setup.ts).
    globalSetup: ['test/helpers/global-setup.ts'],
    // After each file: the servers it spawned and did not stop (a timed-out test) are killed.
    setupFiles: ['test/helpers/each-file.ts'],
    projects: [...inZone('UTC', 'UTC', ALL), ...inZone('Asia/Kolkata', 'Asia/Kolkata', filesTagged('dates'))],
  },
});
