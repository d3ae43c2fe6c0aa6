/**
 * A worker's rounds, one at a time: woken during a round, it runs another right after; otherwise the
 * next comes `pollMs` after the last ends (what other processes wrote is found then). The outbox workers
 * (webhook deliveries, invoice mail) run on it.
 */
export class Rounds {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  constructor(
    private readonly round: () => Promise<void>,
    private readonly pollMs: number,
  ) {}

  /** False once stopped: a round's own loop ends early then. */
  get active(): boolean {
    return !this.stopped;
  }

  start(): void {
    this.stopped = false;
    this.wake();
  }

  /** No round starts after this; resolves when the one running ends. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** A round now, or right after the current one. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.round().finally(() => {
      this.running = undefined;
      if (this.stopped) return;
      if (this.again) {
        this.again = false;
        this.wake();
      } else {
        this.timer = setTimeout(() => this.wake(), this.pollMs);
        this.timer.unref();
      }
    });
  }
}
