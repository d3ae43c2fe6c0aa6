import type { Kysely } from 'kysely';
import { Batcher, type Outcome } from './batcher.js';
import type { Database } from './schema.js';

type Read<T> = (db: Kysely<Database>) => Promise<T>;

/** Runs a point read on its own, or in the read transaction of the reads that arrived with it. */
export interface ReadRunner {
  run<T>(read: Read<T>): Promise<T>;
}

/** PostgreSQL: every read is a statement of its own on a pooled connection. */
export const directReads = (db: Kysely<Database>): ReadRunner => ({ run: (read) => read(db) });

/**
 * SQLite: the point reads that arrive together (client reads, lead reads, a create's read-first) share
 * one read transaction. In WAL mode a statement of its own begins and ends a read transaction, taking
 * and dropping a lock on the shared-memory index with two fcntl calls: about 2 of a point read's 5 µs
 * here. A GET client: 38.7 -> 35.0 µs of CPU per request; a create's read-first in it, POST identical
 * retry 120.5 -> 78.2 µs (docs/performance.md). A batch starts after every read in it was asked for
 * (Batcher), so each sees every write committed before it was asked, as a statement of its own would.
 */
export class SharedReadTransaction implements ReadRunner {
  private readonly batcher: Batcher<Read<unknown>, unknown>;

  constructor(db: Kysely<Database>) {
    this.batcher = new Batcher((reads) =>
      db.transaction().execute(async (trx) => {
        const outcomes: Outcome<unknown>[] = [];
        for (const read of reads) {
          try {
            outcomes.push({ value: await read(trx) });
          } catch (error) {
            outcomes.push({ error });
          }
        }
        return outcomes;
      }),
    );
  }

  run<T>(read: Read<T>): Promise<T> {
    return this.batcher.add(read) as Promise<T>;
  }
}
