import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: running files in parallel threads mostly adds contention on the stores.
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
  },
});
