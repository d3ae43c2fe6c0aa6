/**
 * Invoice PDF rendering through the worker pool (src/documents/pdf-pool.ts), before the PDF route exists:
 * latency of a 10-item and a 500-item invoice, 10-item throughput with two renders in flight, and the
 * event loop's delay on the main thread while a 500-item invoice renders. Run: npx tsx bench/experiments/pdf-render.ts
 * (PDF_BENCH_SECONDS to lengthen the throughput window). Figures are noisy on a shared machine.
 */
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createPdfPool, type PdfPool } from '../../src/documents/pdf-pool.js';
import type { InvoiceAnswer } from '../../src/documents/invoice-document.types.js';
import { manyItems } from '../../test/helpers/invoice-documents.js';

const seconds = Number(process.env.PDF_BENCH_SECONDS ?? 10);
const ms = (ns: number) => (ns / 1e6).toFixed(1);
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function timed(pool: PdfPool, invoice: InvoiceAnswer): Promise<number> {
  const start = process.hrtime.bigint();
  await pool.render({ invoice, timeZone: 'Asia/Kolkata' });
  return Number(process.hrtime.bigint() - start);
}

async function latencies(pool: PdfPool, invoice: InvoiceAnswer, runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) times.push(await timed(pool, invoice));
  return times.sort((a, b) => a - b);
}

async function throughput(pool: PdfPool, invoice: InvoiceAnswer, inFlight: number): Promise<number> {
  const end = Date.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (Date.now() < end) {
        await pool.render({ invoice, timeZone: 'Asia/Kolkata' });
        done += 1;
      }
    }),
  );
  return done / seconds;
}

async function loopDelayDuring(work: () => Promise<unknown>): Promise<{ max: number; p99: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  await work();
  histogram.disable();
  return { max: histogram.max, p99: histogram.percentile(99) };
}

const pool = createPdfPool();
const ten = manyItems(10);
const fiveHundred = manyItems(500);
console.log(
  `load average before: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
await latencies(pool, fiveHundred, 3); // warm both workers' JIT and fonts
await latencies(pool, ten, 40);
const small = await latencies(pool, ten, 200);
console.log(`10 items, one at a time: p50 ${ms(percentile(small, 50))} ms, p99 ${ms(percentile(small, 99))} ms`);
console.log(`10 items, 2 in flight: ${(await throughput(pool, ten, 2)).toFixed(0)} PDFs/s over ${seconds} s`);
const big = await latencies(pool, fiveHundred, 7);
console.log(`500 items: median ${ms(percentile(big, 50))} ms, max ${ms(big.at(-1) ?? NaN)} ms (7 runs)`);
const idle = await loopDelayDuring(() => new Promise((resolve) => setTimeout(resolve, Number(big[3] ?? 1e9) / 1e6)));
const busy = await loopDelayDuring(() => timed(pool, fiveHundred));
console.log(
  `event-loop delay, idle: max ${ms(idle.max)} ms p99 ${ms(idle.p99)} ms; during a 500-item render: max ${ms(busy.max)} ms p99 ${ms(busy.p99)} ms`,
);
console.log(
  `load average after: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
await pool.close();
