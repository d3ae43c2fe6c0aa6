import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

type Work<T> = (db: Kysely<Database>) => Promise<T>;

interface Pending {
  work: Work<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Runs a write in its own transaction, or shares one commit with the writes that arrived with it. */
export interface WriteRunner {
  run<T>(work: Work<T>): Promise<T>;
}

/** PostgreSQL: each write commits on its own connection, and the server already groups WAL flushes. */
export const directWrites = (db: Kysely<Database>): WriteRunner => ({ run: (work) => work(db) });

/**
 * The embedded store fsyncs every commit on the event loop (synchronous=FULL), which caps it at a few
 * thousand commits a second. Writes that arrive in the same turn of the event loop run in one
 * transaction and are answered after its commit: each is exactly as durable as alone, for a share of
 * one fsync. A batch that fails is replayed one write at a time, so one bad write fails only itself.
 * Measured against the store (a script, 2,000 concurrent operations, commit 562d61e): new inserts
 * ~470 -> ~50-65 µs each when 50 arrive together.
 */
export class GroupCommit implements WriteRunner {
  private queue: Pending[] = [];
  private scheduled = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly maxBatch = 200,
  ) {}

  run<T>(work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0) return;
    this.scheduled = true;
    // After the poll phase: every request that arrived in this turn is in the queue by then.
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    const batch = this.queue.splice(0, this.maxBatch);
    try {
      const results = await this.db.transaction().execute(async (trx) => {
        const out: unknown[] = [];
        for (const pending of batch) out.push(await pending.work(trx));
        return out;
      });
      for (const [i, pending] of batch.entries()) pending.resolve(results[i]);
    } catch {
      for (const pending of batch) {
        await this.db.transaction().execute(pending.work).then(pending.resolve, pending.reject);
      }
    } finally {
      this.scheduled = false;
      this.schedule();
    }
  }
}
