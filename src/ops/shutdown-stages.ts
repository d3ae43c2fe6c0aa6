import type { FastifyBaseLogger } from 'fastify';

/** A stage still running this long is named in the log (at warn, which spawned test servers print). */
export const SLOW_STAGE_MS = 2000;

/**
 * The stages of a close (HTTP connections, each worker, the store), timed: a stage that runs past
 * SLOW_STAGE_MS is logged while it runs and again when it ends, and `waiting()` names those still
 * running, for the line the grace deadline writes (docs/reliability.md "Shutdown"). A close that hangs
 * then says where.
 */
export class ShutdownStages {
  private readonly running = new Map<string, number>();

  constructor(
    private readonly logger?: Pick<FastifyBaseLogger, 'warn'>,
    private readonly slowMs = SLOW_STAGE_MS,
  ) {}

  /** Runs one stage under `name` and times it. */
  async run<T>(name: string, work: () => Promise<T>): Promise<T> {
    const started = this.begin(name);
    const slow = setTimeout(
      () => this.logger?.warn({ stage: name, ms: Math.round(performance.now() - started) }, 'shutdown stage is slow'),
      this.slowMs,
    );
    slow.unref();
    try {
      return await work();
    } finally {
      clearTimeout(slow);
      this.end(name, started);
    }
  }

  /** Stages still running, each with how long it has run. */
  waiting(): { stage: string; ms: number }[] {
    const now = performance.now();
    return [...this.running].map(([stage, started]) => ({ stage, ms: Math.round(now - started) }));
  }

  private begin(name: string): number {
    const started = performance.now();
    this.running.set(name, started);
    return started;
  }

  private end(name: string, started: number): void {
    this.running.delete(name);
    const ms = Math.round(performance.now() - started);
    if (ms >= this.slowMs) this.logger?.warn({ stage: name, ms }, 'shutdown stage finished late');
  }
}
