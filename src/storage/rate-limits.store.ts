import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

export interface WindowCount {
  count: number;
  /** When the bucket's current window started and ends (epoch ms). */
  windowStart: number;
  resetAt: number;
}

/** Fixed-window counters in the database, so that every process sharing it counts together. */
export class RateLimitStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Counts one event in one statement (no read-modify-write); answers the count including it. */
  async hit(bucket: string, windowMs: number, now: number): Promise<WindowCount> {
    const fresh = now - windowMs;
    const row = await this.db
      .insertInto('rate_limits')
      .values({ bucket, window_start: now, count: 1 })
      .onConflict((oc) =>
        oc.column('bucket').doUpdateSet({
          count: sql`case when ${sql.ref('rate_limits.window_start')} <= ${fresh} then 1 else ${sql.ref('rate_limits.count')} + 1 end`,
          window_start: sql`case when ${sql.ref('rate_limits.window_start')} <= ${fresh} then ${now} else ${sql.ref('rate_limits.window_start')} end`,
        }),
      )
      .returning(['count', 'window_start'])
      .executeTakeFirstOrThrow();
    const windowStart = Number(row.window_start);
    return { count: Number(row.count), windowStart, resetAt: windowStart + windowMs };
  }

  async peek(bucket: string, windowMs: number, now: number): Promise<WindowCount> {
    return (await this.peekAll([bucket], windowMs, now))[0]!;
  }

  /** Several buckets in one statement (a sign-in checks two): their counts, in the order asked. */
  async peekAll(buckets: string[], windowMs: number, now: number): Promise<WindowCount[]> {
    const rows = await this.db
      .selectFrom('rate_limits')
      .select(['bucket', 'count', 'window_start'])
      .where('bucket', 'in', buckets)
      .execute();
    return buckets.map((bucket) => {
      const row = rows.find((r) => r.bucket === bucket);
      const windowStart = row ? Number(row.window_start) : now;
      if (!row || windowStart <= now - windowMs) return { count: 0, windowStart: now, resetAt: now + windowMs };
      return { count: Number(row.count), windowStart, resetAt: windowStart + windowMs };
    });
  }

  /** Takes back one event counted by `hit`, unless its window has been replaced since. */
  async release(bucket: string, windowStart: number): Promise<void> {
    await this.db
      .updateTable('rate_limits')
      .set({ count: sql`${sql.ref('count')} - 1` })
      .where('bucket', '=', bucket)
      .where('window_start', '=', windowStart)
      .where('count', '>', 0)
      .execute();
  }

  /** Drops buckets whose window started before `before`: they count nothing any more. */
  async prune(before: number): Promise<number> {
    const result = await this.db.deleteFrom('rate_limits').where('window_start', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
