/**
 * Issue 37 item 6: "a 500-item PDF does not delay other requests by more than 20 ms", and renders in
 * under a second. In each round, on the one server process:
 * 1. 500-item PDFs one after another (one connection), nothing else: their latency;
 * 2. GET client as its scenario runs it (50 connections), nothing else;
 * 3. the same GET client load while 500-item PDFs render one after another beside it (a second wrk in
 *    the background, started first).
 * The delay is GET client's p99 in 3 less its p99 in 2, round by round; the figures are medians of the
 * rounds, and the 500-item latency is judged on its slowest answer alone.
 */
import { median, type Settings } from './rounds.js';
import { BIG_PDF_MS, PDF_STALL_MS, type Check } from './targets.js';
import { checkOnce, failed, runWrk, startWrk, type Figures, type LoadSpec } from './wrk.js';

export interface PdfStall {
  bigPdfP50Ms: number;
  bigPdfMaxMs: number;
  bigPdfsRendered: number;
  getClientP99AloneMs: number;
  getClientP99DuringMs: number;
  delayMs: number;
  delayRounds: number[];
  checks: Check[];
}

const describe = (name: string, f: Figures) =>
  `${name}: ${f.requests} answers, ${f.non2xx} not 2xx, ${f.wrong} wrong (${f.sample.slice(0, 200)}), socket errors ${JSON.stringify(f.socketErrors)}`;

function ok(name: string, f: Figures): Figures {
  if (failed(f)) throw new Error(describe(name, f));
  return f;
}

const hundredths = (n: number) => Math.round(n * 100) / 100;

export async function pdfStall(getClient: LoadSpec, bigPdf: LoadSpec, s: Settings): Promise<PdfStall> {
  // At least 5 s: a run that ends before its first render answers counts as failed.
  const pdfRun = { seconds: Math.max(5, s.seconds), connections: 1, timeoutSeconds: 10 };
  const getRun = { seconds: s.seconds, connections: s.connections };
  await checkOnce(bigPdf);
  await checkOnce(getClient);
  ok('warm-up 500-item PDF', runWrk(bigPdf, pdfRun));
  const alone: Figures[] = [];
  const during: Figures[] = [];
  const big: Figures[] = [];
  for (let i = 0; i < s.rounds; i++) {
    big.push(ok('500-item PDF', runWrk(bigPdf, pdfRun)));
    alone.push(ok('GET client', runWrk(getClient, getRun)));
    // The PDFs begin first and last a second longer, so every GET client request meets one rendering.
    const background = startWrk(bigPdf, { ...pdfRun, seconds: s.seconds + 2 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    during.push(ok('GET client beside 500-item PDFs', runWrk(getClient, getRun)));
    ok('500-item PDF beside GET client', await background);
  }
  const delayRounds = alone.map((a, i) => hundredths(during[i]!.p99 - a.p99));
  const delayMs = hundredths(median(delayRounds));
  const bigPdfMaxMs = Math.max(...big.map((f) => f.max));
  return {
    bigPdfP50Ms: hundredths(median(big.map((f) => f.p50))),
    bigPdfMaxMs,
    bigPdfsRendered: big.reduce((sum, f) => sum + f.requests, 0),
    getClientP99AloneMs: hundredths(median(alone.map((f) => f.p99))),
    getClientP99DuringMs: hundredths(median(during.map((f) => f.p99))),
    delayMs,
    delayRounds,
    checks: [
      {
        target: `500-item PDF, slowest answer ≤ ${BIG_PDF_MS} ms`,
        value: bigPdfMaxMs,
        pass: bigPdfMaxMs <= BIG_PDF_MS,
      },
      {
        target: `GET client's p99 beside 500-item PDFs less its p99 alone ≤ ${PDF_STALL_MS} ms`,
        value: delayMs,
        pass: delayMs <= PDF_STALL_MS,
      },
    ],
  };
}
