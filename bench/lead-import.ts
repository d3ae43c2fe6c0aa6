/**
 * Lead CSV import at volume (issue 39): imports ROWS leads in the parts the dashboard sends
 * (MAX_IMPORT_ROWS records each), through the real app over a real store, and reports the event
 * loop's delay while it runs (perf_hooks.monitorEventLoopDelay, 10 ms resolution), the rows a second,
 * and the latency of a lead list GET sent every 100 ms while the import runs (another operator's page).
 * `npx tsx bench/lead-import.ts [rows=5000] [sqlite|postgres]` (TEST_DATABASE_URL for PostgreSQL).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { MAX_IMPORT_ROWS } from '../src/validation/csv-import.js';
import { http, startServer } from '../test/e2e/helpers-browser.js';
import { seedListBusiness } from '../test/e2e/helpers-leads-list.js';
import { tempDataDir } from '../test/helpers/stores.js';

const rows = Number(process.argv[2] ?? 5000);
const storeName = (process.argv[3] ?? 'postgres') as 'sqlite' | 'postgres';

// SQLite: a fresh folder migrated at start (the migrated template is a vitest run's, not a script's).
const server = await startServer(storeName, storeName === 'sqlite' ? { dataDir: tempDataDir() } : {});
const biz = await seedListBusiness(server);
const header = 'externalId,pipeline,stage,subject,customerName,contactName,budgetAmount';
const part = (first: number, count: number) =>
  [
    header,
    ...Array.from(
      { length: count },
      (_, j) => `bench-${first + j},Sales,New,"Order ${first + j}, bench",Buyer ${j % 50},Asha,${first + j}.5`,
    ),
  ].join('\n');

// A warm-up part first: module loading and the first compilations are not the import's steady state.
const warm = await http(server.url, 'POST', `/admin/v1/businesses/${biz.urlKey}/lead-imports`, {
  token: biz.operator,
  body: { csv: part(rows, 10), firstRow: 1 },
});
if (warm.status !== 200) throw new Error(JSON.stringify(warm.body));
const latencies: number[] = [];
let importing = true;
const reader = (async () => {
  while (importing) {
    const sent = performance.now();
    const page = await http(server.url, 'GET', `/admin/v1/businesses/${biz.urlKey}/leads?$limit=20`, {
      token: biz.operator,
    });
    if (page.status !== 200) throw new Error(JSON.stringify(page.body));
    latencies.push(performance.now() - sent);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
})();
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
const started = performance.now();
let created = 0;
for (let first = 0; first < rows; first += MAX_IMPORT_ROWS) {
  const count = Math.min(MAX_IMPORT_ROWS, rows - first);
  const answer = await http(server.url, 'POST', `/admin/v1/businesses/${biz.urlKey}/lead-imports`, {
    token: biz.operator,
    body: { csv: part(first, count), firstRow: first + 1 },
  });
  if (answer.status !== 200 || answer.body.data.failed > 0) throw new Error(JSON.stringify(answer.body).slice(0, 500));
  created += answer.body.data.created;
}
const seconds = (performance.now() - started) / 1000;
delay.disable();
importing = false;
await reader;
latencies.sort((a, b) => a - b);
const at = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!.toFixed(1);
const ms = (ns: number) => (ns / 1e6).toFixed(1);
console.log(
  JSON.stringify({
    store: storeName,
    rows,
    created,
    seconds: Number(seconds.toFixed(1)),
    rowsPerSecond: Math.round(rows / seconds),
    eventLoopDelayMs: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
    listGetDuringImportMs: { count: latencies.length, p50: at(50), p99: at(99), max: at(100) },
  }),
);
await server.close();
