/**
 * Where a scenario's server CPU goes, thread by thread: one server (`dist/`, started as `npm start`
 * starts it, on its own embedded store or on DATABASE_URL), seeded as the bench seeds, then each named
 * scenario loaded ROUNDS times (3 s, 50 connections) in alternation, printing the CPU time per request
 * of each thread group (main thread, libuv's pool, V8's helper threads …), user and kernel time
 * apart, from /proc. For questions the
 * process total cannot answer, e.g. which thread pays for what a webhook subscription adds to a create.
 *
 *   npm run build && npx tsx bench/experiments/threads.ts "POST new client" "POST new client (1 webhook)"
 */
import { readdirSync, readFileSync } from 'node:fs';
import { startSeededServer } from './seeded-server.js';
import { scenarios } from '../server.js';
import { runWrk } from '../wrk.js';
import { HOOKED_SCENARIO } from '../webhooks.js';

const wanted = process.argv.slice(2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const databaseUrl = process.env.DATABASE_URL;

/** CPU time so far (µs) per thread name: the kernel's comm, with trailing numbers folded together. */
function cpuByThread(pid: number): Map<string, number> {
  const used = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/[\d\s]+$/, '');
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      const key = tid === String(pid) ? 'main' : name;
      // User and kernel time apart: a write's cost may be the system calls it makes.
      used.set(`${key} user`, (used.get(`${key} user`) ?? 0) + Number(fields[11]) * 10_000);
      used.set(`${key} sys`, (used.get(`${key} sys`) ?? 0) + Number(fields[12]) * 10_000);
    } catch {
      // gone
    }
  }
  return used;
}

// THREADS_NODE_FLAGS: more flags for the server's node, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
const nodeFlags = (process.env.THREADS_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const { child, url, seeded } = await startSeededServer('dist', 39_410, {
  databaseUrl,
  hooked: wanted.includes(HOOKED_SCENARIO),
  nodeFlags,
});
try {
  const specs = Object.fromEntries(scenarios(seeded, url));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const scenario of wanted) {
      const spec = specs[scenario];
      if (!spec) throw new Error(`no scenario ${scenario}`);
      const before = cpuByThread(child.pid!);
      const figures = runWrk(spec, { seconds: 3, connections: 50 });
      const after = cpuByThread(child.pid!);
      const parts = [...after]
        .map(([name, used]) => [name, (used - (before.get(name) ?? 0)) / figures.requests] as const)
        .filter(([, perRequest]) => perRequest >= 0.5)
        .sort((a, b) => b[1] - a[1]);
      const total = parts.reduce((sum, [, perRequest]) => sum + perRequest, 0);
      console.log(
        `${scenario.padEnd(28)} round ${round} ${String(Math.round(figures.requestsPerSecond)).padStart(6)} req/s  CPU/req ${total.toFixed(1)} us: ${parts.map(([name, perRequest]) => `${name} ${perRequest.toFixed(1)}`).join(', ')}`,
      );
    }
  }
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}
