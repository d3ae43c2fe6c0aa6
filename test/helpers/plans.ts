import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/storage/schema.js';

/**
 * The plan PostgreSQL keeps for a prepared statement once it stops planning per call (`EXPLAIN` of
 * `EXECUTE` under `force_generic_plan`). One transaction: through PgBouncer in transaction mode (CI's
 * second pass) only a transaction stays on one server connection, and the statement must be prepared
 * on the connection that explains it.
 */
export function genericPlan(db: Kysely<Database>, text: string, types: string, args: string): Promise<string> {
  return db.transaction().execute(async (trx) => {
    await sql`set local plan_cache_mode = force_generic_plan`.execute(trx);
    await sql.raw(`prepare plan_under_test(${types}) as ${text}`).execute(trx);
    try {
      const { rows } = await sql.raw<{ 'QUERY PLAN': string }>(`explain execute plan_under_test(${args})`).execute(trx);
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    } finally {
      await sql`deallocate plan_under_test`.execute(trx);
    }
  });
}
