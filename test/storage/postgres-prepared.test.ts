// @module-tag pooled
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { BusinessDataStore } from '../../src/storage/business-data.store.js';
import { BATCHED_CLIENT_READ } from '../../src/storage/client-batches.js';
import { openPostgres } from '../../src/storage/db.js';
import { directWrites } from '../../src/storage/group-commit.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { POSTGRES_URL, availableStores, sessionUrlOf } from '../helpers/stores.js';

const stores = await availableStores();

/** Two point reads on one connection, then the statements that connection's session holds. */
async function preparedAfterReads(url: string, prepared: boolean): Promise<string[]> {
  // One connection, so the session that ran the reads is the one asked about its statements.
  const { db } = openPostgres(url, 1, { prepared });
  try {
    const data = new BusinessDataStore(db, directWrites(db), 'batched-statement');
    expect(await data.findClient('no-such-business', 'no-such-client')).toBeUndefined();
    expect(await data.findClient('no-such-business', 'another')).toBeUndefined();
    const { rows } = await sql<{
      statement: string;
    }>`select statement from pg_prepared_statements where name like 'crmkit_%'`.execute(db);
    return rows.map((r) => r.statement);
  } finally {
    await db.destroy();
  }
}

describe.runIf(stores.includes('postgres'))(
  'PostgreSQL: named statements where the connection holds them, unnamed behind a pooler',
  () => {
    it('DATABASE_PREPARED=true: a repeated point read runs as a named statement, and answers as before', async () => {
      // Named statements live in a session: asked on the direct connection even when the suite runs through PgBouncer.
      const { db } = openPostgres(sessionUrlOf(POSTGRES_URL), 1, { prepared: false });
      await migrateToLatest(db as never, 'postgres').finally(() => db.destroy());
      const statements = await preparedAfterReads(sessionUrlOf(POSTGRES_URL), true);
      // Point reads go through the batched statement (one key or many): that is the statement prepared once.
      expect(statements).toContain(BATCHED_CLIENT_READ);
    });

    it('DATABASE_PREPARED=false: the same reads answer alike and leave no named statement behind (what a transaction-mode pooler needs)', async () => {
      // On a session of its own, so that nothing else's statements are counted; the pooled pass of
      // scripts/test.mjs runs the whole suite unnamed through PgBouncer, where named ones fail.
      expect(await preparedAfterReads(sessionUrlOf(POSTGRES_URL), false)).toEqual([]);
    });
  },
);
