/**
 * Issue 22's targets: for each scenario, which anchors it is timed with and what it must reach against
 * them and against the baseline (single server process, 50 connections, medians of the paired rounds).
 */
import { INVOICE_SCENARIOS } from './invoices.js';
import { median, type Summary } from './rounds.js';

/** none: the scenario's targets are absolute, or relative to another scenario of the run (`relative`). */
export type AnchorKind = 'answer' | 'read' | 'insert' | 'no endpoint' | 'none';

interface Plan {
  /**
   * answer: the raw node:http replay and the bare Fastify route of the scenario's own answer; read and
   * insert: the bare-driver service; no endpoint: the same request to a business without a webhook endpoint.
   */
  anchors: AnchorKind;
  /** At least this share of the baseline. */
  baseline?: number;
  /** At least this many times the (first) anchor's requests/s, paired round by round. */
  anchor?: number;
  /** Within this of the second anchor's share of the first (the bare Fastify route over the replay). */
  framework?: number;
  p99Ms?: number;
  /** At least this many requests/s (the PDF: issue 37 item 6, on one process). */
  minRate?: number;
  /**
   * At least `share` of another scenario's rate in the same store's run. Taken as shares of the baseline,
   * since the two run minutes apart (issue 36 item 7: POST invoice against POST new client, GET invoice
   * against GET client).
   */
  relative?: { scenario: string; share: number };
  /** No targets: the clients' scenario printed beside this one (same store, same run) for comparison. */
  beside?: string;
}

const CACHED_GET: Plan = { anchors: 'answer', anchor: 0.75, framework: 0.05, p99Ms: 10 };
export const PLANS: Record<string, Plan> = {
  'token by app-secret': { anchors: 'read', p99Ms: 25 },
  'GET pipelines (self-signed)': CACHED_GET,
  'GET pipelines (issued)': CACHED_GET,
  'GET client': { anchors: 'read', baseline: 0.35, anchor: 1.75, p99Ms: 10 },
  'POST new client': { anchors: 'insert', baseline: 0.2, anchor: 2, p99Ms: 25 },
  'POST identical retry': { anchors: 'read', baseline: 0.3, p99Ms: 25 },
  // Issue 24: the outbox may cost POST new client at most 10% (one subscribed endpoint against none).
  'POST new client (1 webhook)': { anchors: 'no endpoint', anchor: 0.9, p99Ms: 25 },
  // Issue 21 asks for the leads' figures beside the clients', with no targets of their own.
  'GET lead': { anchors: 'read', beside: 'GET client' },
  'GET leads (pipeline+stage)': { anchors: 'read', beside: 'GET client' },
  'POST new lead': { anchors: 'insert', beside: 'POST new client' },
  'PATCH stage move': { anchors: 'insert', beside: 'POST new client' },
  // Issue 36 item 7 and issue 37 item 6 (bench/invoices.ts).
  'POST invoice': { anchors: 'none', relative: { scenario: 'POST new client', share: 0.6 }, p99Ms: 25 },
  'GET invoice': { anchors: 'none', relative: { scenario: 'GET client', share: 0.8 }, p99Ms: 10 },
  'find invoices (first page)': { anchors: 'none', p99Ms: 10 },
  'POST payment': { anchors: 'none', p99Ms: 25 },
  'GET invoice PDF (10 items)': { anchors: 'none', p99Ms: 50, minRate: 100 },
};
/** The 500-item PDF: each under this (issue 37 item 6), and GET client's p99 while they render at most this much later. */
export const BIG_PDF_MS = 1000;
export const PDF_STALL_MS = 20;
/** With BENCH_INVOICE_SCALE invoices in one business (PostgreSQL), each find and sync page's p99 (issue 36 item 7). */
export const INVOICE_SCALE_P99_MS = 20;
export const PDF_STALL_SCENARIO = 'GET client while 500-item PDFs render';
export const LEAD_SCENARIOS = Object.keys(PLANS).filter((name) => PLANS[name]!.beside !== undefined);
/**
 * The token exchange has no target in issue 22: run it by naming it in BENCH_SCENARIOS. The leads' four
 * would take the default run past 25 minutes: BENCH_SCENARIOS=leads runs them with the two clients'
 * scenarios they are printed beside.
 */
export const DEFAULT_SCENARIOS = [
  ...Object.keys(PLANS).filter((name) => name !== 'token by app-secret' && !LEAD_SCENARIOS.includes(name)),
  PDF_STALL_SCENARIO,
];
/** BENCH_SCENARIOS: names, comma-separated; `leads` stands for the leads' scenarios and the clients' they are compared with. */
export function wantedScenarios(value: string | undefined): string[] {
  if (value === undefined) return DEFAULT_SCENARIOS;
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return names.flatMap((name) =>
    name === 'leads'
      ? ['GET client', 'POST new client', ...LEAD_SCENARIOS]
      : name === 'invoices'
        ? ['GET client', 'POST new client', ...INVOICE_SCENARIOS, PDF_STALL_SCENARIO]
        : [name],
  );
}

export const RSS_LIMIT_MB = 150;
/** With BENCH_SCALE stored clients, GET client and POST new client may lose at most this share. */
export const SCALE_LOSS = 0.1;

export interface Check {
  target: string;
  value: number;
  pass: boolean;
}
export interface AnchorFigures extends Summary {
  crmkitOver: number;
  crmkitOverRounds: number[];
}

const check = (target: string, value: number, pass: boolean): Check => ({
  target,
  value: Math.round(value * 1000) / 1000,
  pass,
});

/** The scenario's checks against its plan. */
export function checks(scenario: string, crmkit: Summary, anchors: AnchorFigures[]): Check[] {
  const plan = PLANS[scenario]!;
  const out: Check[] = [];
  if (plan.baseline !== undefined)
    out.push(check(`≥ ${plan.baseline} of the baseline`, crmkit.toBaseline, crmkit.toBaseline >= plan.baseline));
  const [first, second] = anchors;
  if (plan.anchor !== undefined && first) {
    out.push(check(`≥ ${plan.anchor}× ${first.name}`, first.crmkitOver, first.crmkitOver >= plan.anchor));
  }
  if (plan.framework !== undefined && first && second) {
    // Both over the replay, round by round: the bare Fastify route's share less crmkit's.
    const gap = second.toBaselineRounds.map((r, i) => r / first.toBaselineRounds[i]!);
    const behind = median(gap) - first.crmkitOver;
    out.push(
      check(
        `${second.name}'s share of the ${first.name} less crmkit's ≤ ${plan.framework}`,
        behind,
        behind <= plan.framework,
      ),
    );
  }
  if (plan.p99Ms !== undefined) out.push(check(`p99 ≤ ${plan.p99Ms} ms`, crmkit.p99, crmkit.p99 <= plan.p99Ms));
  if (plan.minRate !== undefined)
    out.push(check(`≥ ${plan.minRate} req/s`, crmkit.requestsPerSecond, crmkit.requestsPerSecond >= plan.minRate));
  return out;
}

/** The check of a `relative` plan against the other scenario's figures of the same run (none when it did not run). */
export function relativeCheck(scenario: string, crmkit: Summary, other: Summary | undefined): Check | undefined {
  const relative = PLANS[scenario]?.relative;
  if (!relative || !other) return undefined;
  const value = crmkit.toBaseline / other.toBaseline;
  return check(`≥ ${relative.share}× ${relative.scenario} (shares of the baseline)`, value, value >= relative.share);
}
