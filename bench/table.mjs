// A results file of `npm run bench` as the Markdown table docs/performance.md shows.
// Usage: node bench/table.mjs [bench/results/latest.json]
import { readFileSync } from 'node:fs';

const results = JSON.parse(readFileSync(process.argv[2] ?? 'bench/results/latest.json', 'utf8'));
const f2 = (n) => n.toFixed(2);
const range = (values) => `${f2(Math.min(...values))}-${f2(Math.max(...values))}`;
const load = (l) => l.map((n) => n.toFixed(1)).join(' ');

console.log(
  `${results.date.slice(0, 16).replace('T', ' ')} UTC, wrk 1 thread ${results.connections} connections, ${results.rounds} paired rounds of ${results.seconds} s, ${results.storedClients} clients; load average ${load(results.machine.loadAverageBefore)} before, ${load(results.machine.loadAverageAfter)} after (${results.machine.cores} cores).\n`,
);
console.log(
  '| store | scenario | req/s | of baseline (rounds) | crmkit over each anchor | p99 ms | CPU µs per answer | missed |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const row of results.rows) {
  const missed =
    row.checks
      .filter((k) => !k.pass)
      .map((k) => `${k.target}: ${k.value}`)
      .join('; ') || '–';
  const c = row.crmkit;
  if (row.delivery) {
    const d = row.delivery;
    console.log(
      `| ${row.store} | ${row.scenario} | ${d.deliveriesPerSecond} | | one delivering instance: ${d.delivered} of ${d.backlog} events in ${d.seconds} s | | | ${row.status === 'FAILED' ? row.error : '–'} |`,
    );
    continue;
  }
  if (row.pdfStall) {
    const p = row.pdfStall;
    console.log(
      `| ${row.store} | ${row.scenario} | | | GET client p99 ${p.getClientP99AloneMs} ms alone, ${p.getClientP99DuringMs} beside (delay ${p.delayMs} ms); 500-item PDF p50 ${p.bigPdfP50Ms} ms, slowest ${p.bigPdfMaxMs} | | | ${missed} |`,
    );
    continue;
  }
  if (!c) {
    console.log(
      `| ${row.store} | ${row.scenario} | ${row.status === 'FAILED' ? `FAILED: ${row.error}` : row.checks.map((k) => k.value).join()} | | | | | ${missed} |`,
    );
    continue;
  }
  const anchors = row.anchors.map((a) => `${a.name} ${f2(a.crmkitOver)}`).join('; ');
  const cpu = `${c.serverCpuUs}${c.databaseCpuUs ? ` + ${c.databaseCpuUs} PG` : ''}`;
  console.log(
    `| ${row.store} | ${row.scenario} | ${c.requestsPerSecond} | ${f2(c.toBaseline)} (${range(c.toBaselineRounds)}) | ${anchors} | ${c.p99} | ${cpu} | ${missed} |`,
  );
}
