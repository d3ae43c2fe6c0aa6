import { defineConfig } from 'vitest/config';

// Everything in UTC; the in-process suites once more in Asia/Kolkata (UTC+05:30), so that no date
// rule leans on the machine's zone. Spawned servers (process/, e2e/, reliability/) run in UTC.
const inProcess = ['test/unit/**/*.test.ts', 'test/http/**/*.test.ts', 'test/storage/**/*.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: running files in parallel threads mostly adds contention on the stores.
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
    projects: [
      { extends: true, test: { name: 'UTC', include: ['test/**/*.test.ts'], env: { TZ: 'UTC' } } },
      { extends: true, test: { name: 'Asia/Kolkata', include: inProcess, env: { TZ: 'Asia/Kolkata' } } },
    ],
  },
});
