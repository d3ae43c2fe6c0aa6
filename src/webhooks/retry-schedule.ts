/**
 * Delays before each retry, in units of WEBHOOKS_RETRY_BASE_MS (10 s by default): ×3 per attempt,
 * then twelve hours at most. With the default the 13 retries span about 69 hours (just under three
 * days) after the first attempt; then the event is given up and its endpoint disabled.
 */
export const RETRY_STEPS = [1, 3, 9, 27, 81, 243, 729, 2187, 4320, 4320, 4320, 4320, 4320] as const;

/** Attempts in all: the first and every retry. */
export const MAX_ATTEMPTS = RETRY_STEPS.length + 1;

/**
 * The delay after failed attempt `attempt` (1-based), with ±20% jitter so that retries of many
 * events (an endpoint that was down) do not arrive together; null when no retry is left.
 */
export function retryDelayMs(attempt: number, baseMs: number, random: () => number = Math.random): number | null {
  const step = RETRY_STEPS[attempt - 1];
  if (step === undefined) return null;
  return Math.round(step * baseMs * (0.8 + 0.4 * random()));
}
