import { CompiledQuery, type Kysely } from 'kysely';
import { PLAN_PER_CALL } from './postgres-client.js';

/**
 * A query compiled once with placeholder values (slots, which no real value can equal: they hold
 * NUL) and bound per call: building and compiling a query through Kysely on every call measured as
 * a tenth of a point read and a fifth of a create. Measured: the point read compiled once took GET
 * client from 0.11 to 0.20 of the node:http baseline (commit 71e1bdf, with SQLite statements prepared
 * once); the create compiled once, CPU per POST new client 90-112 -> 76-82 µs (SQLite, autocannon 50
 * connections, 3 A/B pairs, commit ee2c83e).
 */
export function bindSlots<R>(query: CompiledQuery<R>, values: Record<string, unknown>): CompiledQuery<R> {
  return {
    ...query,
    parameters: query.parameters.map((p) => (typeof p === 'string' && Object.hasOwn(values, p) ? values[p] : p)),
  };
}

/** Fails at start, not per request, if compiling dropped a slot (a value Kysely inlined or folded). */
export function requireSlots(query: CompiledQuery, slots: string[]): void {
  for (const slot of slots)
    if (!query.parameters.includes(slot)) throw new Error(`compiled query lost its slot ${JSON.stringify(slot)}`);
}

/**
 * A slotted query compiled once per SQL dialect, for statements run with whichever handle the caller
 * holds (the store's, or a transaction's): the text depends only on the dialect, and the tests run
 * both stores in one process.
 */
export function compiledPerDialect<R>(
  build: (db: Kysely<any>) => CompiledQuery<R>,
  slots: string[],
): (db: Kysely<any>) => CompiledQuery<R> {
  const byAdapter = new Map<unknown, CompiledQuery<R>>();
  return (db) => {
    const adapter = db.getExecutor().adapter.constructor;
    let query = byAdapter.get(adapter);
    if (!query) {
      query = build(db);
      requireSlots(query, slots);
      byAdapter.set(adapter, query);
    }
    return query;
  };
}

/**
 * Runs a query sent unnamed on PostgreSQL (PLAN_PER_CALL): for statements whose text changes with their
 * row count (multi-row INSERTs, IN lists), where a named statement per count would be kept on every
 * pooled connection. Their plans are trivial.
 */
export async function runUnnamed<R>(db: Kysely<any>, query: CompiledQuery): Promise<R[]> {
  const { rows } = await db.executeQuery<R>(CompiledQuery.raw(PLAN_PER_CALL + query.sql, [...query.parameters]));
  return rows;
}
