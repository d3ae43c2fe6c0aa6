// @module-tag smoke
import { statSync } from 'node:fs';
import { expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.js';
import { seedTenant } from '../helpers/seed.js';

/**
 * Issue 2's trap: a better-sqlite3 `.get()` on a write with RETURNING stops automatic WAL
 * checkpoints and the WAL grows without bound. Kysely uses `.all()`/`.run()`; this keeps it so.
 */
it("the embedded store's WAL stays bounded under a long write load", async () => {
  const testApp = await createTestApp('sqlite');
  try {
    const t = await seedTenant(testApp.app);
    const padding = 'x'.repeat(4000);
    const wal = `${testApp.store.sqlitePath}-wal`;
    let largest = 0;
    // 6,000 inserts of ~4 KB each write ~24 MB through the WAL: without checkpoints it would pass 20 MB.
    for (let i = 0; i < 6000; i++) {
      const result = await testApp.store.data.insertClient(
        t.urlKey,
        `wal-${i}`,
        'API',
        { name: `Client ${i}`, street: padding },
        Date.now(),
      );
      expect(result.outcome).toBe('inserted');
      if (i % 500 === 0) largest = Math.max(largest, statSync(wal).size);
    }
    largest = Math.max(largest, statSync(wal).size);
    expect(largest).toBeLessThan(16 * 1024 * 1024);
  } finally {
    await testApp.close();
  }
}, 120_000);
