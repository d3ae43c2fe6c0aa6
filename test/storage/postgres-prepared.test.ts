import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { BusinessDataStore } from '../../src/storage/business-data.store.js';
import { BATCHED_CLIENT_READ } from '../../src/storage/client-batches.js';
import { openPostgres } from '../../src/storage/db.js';
import { directWrites } from '../../src/storage/group-commit.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { POSTGRES_URL, availableStores } from '../helpers/stores.js';

const stores = await availableStores();

describe.runIf(stores.includes('postgres'))('PostgreSQL: parameterised queries are prepared once per connection', () => {
  it('a repeated point read runs as a named statement, and answers as before', async () => {
    // One connection, so the session that ran the reads is the one asked about its statements.
    const { db } = openPostgres(POSTGRES_URL, 1);
    try {
      await migrateToLatest(db as never, 'postgres');
      const data = new BusinessDataStore(db, directWrites(db), 'batched-statement');
      expect(await data.findClient('no-such-business', 'no-such-client')).toBeUndefined();
      expect(await data.findClient('no-such-business', 'another')).toBeUndefined();
      const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements where name like 'crmkit_%'`.execute(db);
      // Point reads go through the batched statement (one key or many): that is the statement prepared once.
      expect(rows.some((r) => r.statement === BATCHED_CLIENT_READ)).toBe(true);
    } finally {
      await db.destroy();
    }
  });
});
