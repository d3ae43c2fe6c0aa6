/**
 * Paired rounds: B S A1 A2 B S A1 A2 … B. A scenario (S) and its anchors (A) run back to back between
 * two runs of the baseline (B); each run's ratio is its requests/s over the mean of the baselines just
 * before and just after its round, and a scenario's share of its anchor is taken round by round. The
 * machine's speed drifts from one run to the next (the baseline has moved between 15k and 100k req/s
 * here), so only figures measured seconds apart are compared.
 */
import type { Target } from './anchors.js';
import { cpuByProcess } from './server.js';
import { checkOnce, failed, runWrk, type Figures } from './wrk.js';

export interface Run {
  figures: Figures;
  serverCpuUs: number;
  databaseCpuUs?: number;
}
export interface Round {
  baseline: number;
  runs: Run[];
}
export interface Settings {
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
}

/** Medians of one process's runs over the rounds. */
export interface Summary {
  name: string;
  requestsPerSecond: number;
  toBaseline: number;
  toBaselineRounds: number[];
  p50: number;
  p99: number;
  serverCpuUs: number;
  databaseCpuUs?: number;
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** CPU used between two readings: processes in both count their difference, new ones all they used. */
function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, used] of after) total += used - (before.get(pid) ?? 0);
  return total;
}

const describe = (name: string, f: Figures) =>
  `${name}: ${f.requests} answers, ${f.non2xx} not 2xx, ${f.wrong} wrong${f.sample ? ` (first: ${f.sample.slice(0, 200)})` : ''}, socket errors ${JSON.stringify(f.socketErrors)}`;

/** One timed run, with the CPU time per answer of the target's process and of PostgreSQL's backends. */
async function timed(target: Target, s: Settings, databasePids?: () => Promise<number[]>): Promise<Run> {
  const server = cpuByProcess([target.pid]);
  const pids = target.usesDatabase ? databasePids : undefined;
  const database = pids ? cpuByProcess(await pids()) : undefined;
  const figures = runWrk(target.spec, { seconds: s.seconds, connections: target.spec.connections ?? s.connections });
  if (failed(figures)) throw new Error(describe(target.name, figures));
  const perAnswer = (micros: number) => Math.round(micros / figures.requests);
  const run: Run = { figures, serverCpuUs: perAnswer(cpuBetween(server, cpuByProcess([target.pid]))) };
  // The pools open and close connections: backends new since the start count in full.
  if (database && pids) run.databaseCpuUs = perAnswer(cpuBetween(database, cpuByProcess(await pids())));
  return run;
}

/**
 * Checks one full answer of each target, warms each up, then times the rounds. Throws, naming the run,
 * on a wrong first answer, a socket error or an answer that is not 2xx.
 */
export async function pairedRounds(
  baseline: Target,
  targets: Target[],
  s: Settings,
  databasePids?: () => Promise<number[]>,
): Promise<Round[]> {
  for (const target of targets) {
    await checkOnce(target.spec);
    if (s.warmupSeconds > 0) {
      const warm = runWrk(target.spec, {
        seconds: s.warmupSeconds,
        connections: target.spec.connections ?? s.connections,
      });
      if (failed(warm)) throw new Error(`warm-up: ${describe(target.name, warm)}`);
    }
  }
  const rounds: Round[] = [];
  let before = (await timed(baseline, s)).figures.requestsPerSecond;
  for (let i = 0; i < s.rounds; i++) {
    const runs: Run[] = [];
    for (const target of targets) runs.push(await timed(target, s, databasePids));
    const after = (await timed(baseline, s)).figures.requestsPerSecond;
    rounds.push({ baseline: (before + after) / 2, runs });
    before = after;
  }
  return rounds;
}

const hundredths = (n: number) => Math.round(n * 100) / 100;

/** The medians of the `index`th target's runs. */
export function summarize(name: string, rounds: Round[], index: number): Summary {
  const runs = rounds.map((r) => r.runs[index]!);
  const toBaselineRounds = rounds.map((r) => r.runs[index]!.figures.requestsPerSecond / r.baseline);
  const database = runs.map((r) => r.databaseCpuUs).filter((v): v is number => v !== undefined);
  return {
    name,
    requestsPerSecond: Math.round(median(runs.map((r) => r.figures.requestsPerSecond))),
    toBaseline: median(toBaselineRounds),
    toBaselineRounds,
    p50: hundredths(median(runs.map((r) => r.figures.p50))),
    p99: hundredths(median(runs.map((r) => r.figures.p99))),
    serverCpuUs: median(runs.map((r) => r.serverCpuUs)),
    ...(database.length > 0 && { databaseCpuUs: median(database) }),
  };
}

/** Target `a` over target `b`, round by round (both timed seconds apart), and the median. */
export function share(rounds: Round[], a: number, b: number): { median: number; rounds: number[] } {
  const each = rounds.map((r) => r.runs[a]!.figures.requestsPerSecond / r.runs[b]!.figures.requestsPerSecond);
  return { median: median(each), rounds: each };
}
