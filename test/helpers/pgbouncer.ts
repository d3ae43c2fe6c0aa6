import pg from 'pg';
import { startPgBouncer, type PgBouncer } from '../../scripts/pgbouncer.mjs';

export type { PgBouncer };
export { startPgBouncer };

export interface PoolState {
  /** Client connections (instances' pool connections) the pooler holds for the database. */
  clients: number;
  /** Server connections it has open to PostgreSQL for it: never above the pool size. */
  servers: number;
}

/** SHOW POOLS on the pooler's console: how many clients share how many server connections. */
export async function poolState(bouncer: PgBouncer, database: string): Promise<PoolState> {
  const console = new pg.Client({ connectionString: bouncer.url('pgbouncer') });
  await console.connect();
  try {
    const { rows } = await console.query('SHOW POOLS');
    const pool = rows.find((r) => r.database === database) ?? {};
    const n = (...keys: string[]) => keys.reduce((sum, k) => sum + Number(pool[k] ?? 0), 0);
    return {
      clients: n('cl_active', 'cl_waiting', 'cl_cancel_req', 'cl_active_cancel_req', 'cl_waiting_cancel_req'),
      servers: n('sv_active', 'sv_idle', 'sv_used', 'sv_tested', 'sv_login', 'sv_active_cancel', 'sv_being_canceled'),
    };
  } finally {
    await console.end();
  }
}
