import { defineConfig } from 'vitest/config';
import { TEST_TAGS, filesTagged } from './scripts/test-tags.mjs';

// Everything in UTC; the suites whose answers depend on dates (tagged `dates`) once more in Asia/Kolkata
// (UTC+05:30), so that no date rule leans on the machine's zone. Spawned servers run in UTC.
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
    projects: [
      { extends: true, test: { name: 'UTC', include: ['test/**/*.test.ts'], env: { TZ: 'UTC' } } },
      { extends: true, test: { name: 'Asia/Kolkata', include: filesTagged('dates'), env: { TZ: 'Asia/Kolkata' } } },
    ],
  },
});
