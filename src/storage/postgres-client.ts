import { createHash } from 'node:crypto';
import pg from 'pg';

const names = new Map<string, string>();

/** A name per query text (a hash, so one name never meets two texts); kept, since the texts are few. */
function statementName(text: string): string {
  let name = names.get(text);
  if (!name) {
    if (names.size >= 500) names.clear();
    name = `crmkit_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}

type Query = (this: pg.Client, ...args: unknown[]) => unknown;

/**
 * A statement starting with this comment is sent unnamed, so PostgreSQL plans it for its values on every
 * call. For statements whose best plan depends on the values' selectivity: a search joined to another
 * filter or sort (storage/lead-lists.store.ts) got, after five calls, a generic plan that read a broad
 * word's 100,000 matches by row id (q + pipeline at 1,000,000 leads: 600 ms p50, against 150-190 ms
 * planned for the word; docs/performance-leads.md "Free text at scale").
 */
export const PLAN_PER_CALL = '/* plan per call */ ';

/**
 * A pg client that sends every parameterised query as a named (prepared) statement, so PostgreSQL
 * parses and plans each query text once per connection instead of on every call. Measured on the
 * client point read (a three-table join): backend CPU 230 -> 75 us per query, round trip 380 -> 180 us.
 * Kysely passes (text, values); nothing else changes. Our queries name their columns (never `*`), so
 * a column added by a later migration cannot change the result type of a plan cached before it.
 */
export class PreparingClient extends pg.Client {}

Object.defineProperty(PreparingClient.prototype, 'query', {
  value(this: pg.Client, text: unknown, values?: unknown, ...rest: unknown[]) {
    // Looked up per call, so that whatever wraps pg.Client's query (a test's spy) still sees every query.
    const plainQuery = pg.Client.prototype.query as Query;
    if (typeof text === 'string' && Array.isArray(values) && values.length > 0 && !text.startsWith(PLAN_PER_CALL)) {
      return plainQuery.call(this, { name: statementName(text), text, values }, ...rest);
    }
    return plainQuery.call(this, text, values, ...rest);
  },
});
