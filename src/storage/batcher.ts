/** What one call of a batch came to: its value, or the error that is its alone. */
export type Outcome<R> = { value: R } | { error: unknown };

interface Waiting<T, R> {
  item: T;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Calls that arrive together, run as one batch: a call waits for the end of the current turn of the
 * event loop and, while `maxInFlight` batches are out, for one of them to come back. A batch starts
 * after every call in it was made, so a read in it sees every write committed before it was asked
 * for, exactly as a statement of its own would. If `runBatch` throws, every call of that batch fails.
 * Measured on PostgreSQL when creates began to share one INSERT through it (autocannon, 50 connections,
 * 2 s, commit 56bc484): POST new client 4.4k -> 8.2-9.6k req/s, server 166 -> 81-110 µs and
 * PostgreSQL 134 -> 36 µs per request.
 */
export class Batcher<T, R> {
  private queue: Waiting<T, R>[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly runBatch: (items: T[]) => Promise<Outcome<R>[]>,
    private readonly maxInFlight = 4,
    private readonly maxBatch = 200,
  ) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0 || this.inFlight >= this.maxInFlight) return;
    this.scheduled = true;
    // After the poll phase: every request that arrived in this turn has made its call by then.
    setImmediate(() => {
      this.scheduled = false;
      while (this.queue.length > 0 && this.inFlight < this.maxInFlight)
        void this.run(this.queue.splice(0, this.maxBatch));
    });
  }

  private async run(batch: Waiting<T, R>[]): Promise<void> {
    this.inFlight++;
    try {
      const outcomes = await this.runBatch(batch.map((waiting) => waiting.item));
      batch.forEach((waiting, i) => {
        const outcome = outcomes[i]!;
        if ('value' in outcome) waiting.resolve(outcome.value);
        else waiting.reject(outcome.error);
      });
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    } finally {
      this.inFlight--;
      this.schedule();
    }
  }
}
