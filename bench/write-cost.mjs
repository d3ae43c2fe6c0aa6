// How the cost of answering grows as the server slows, on this machine: a raw node:http server that
// spins a fixed time per request, loaded like the bench (autocannon, 50 connections, a separate
// process), with the server's CPU time per request read from /proc. Usage: node bench/write-cost.mjs
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

if (process.argv[2] === 'serve') {
  const { createServer } = await import('node:http');
  const body = JSON.stringify({ success: true, data: { message: 'x'.repeat(162) } });
  const spinNs = BigInt(Number(process.argv[4]) * 1000);
  createServer((_request, response) => {
    const started = process.hrtime.bigint();
    while (process.hrtime.bigint() - started < spinNs);
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
    response.end(body);
  }).listen(Number(process.argv[3]), '127.0.0.1', () => process.stdout.write('ready\n'));
} else {
  const cpuMicros = (pid) => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  };
  console.log('spin per request | req/s | CPU per request | of which not the spin');
  for (const spin of [0, 10, 20, 40]) {
    const port = 39_300 + spin;
    const server = spawn(process.execPath, [new URL(import.meta.url).pathname, 'serve', String(port), String(spin)], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve) => server.stdout.once('data', resolve));
    try {
      const before = cpuMicros(server.pid);
      const spec = { url: `http://127.0.0.1:${port}`, method: 'GET', path: '/', headers: {}, connections: 50, duration: 4, expectStatus: 200 };
      const result = JSON.parse(execFileSync(process.execPath, ['bench/load.mjs'], { input: JSON.stringify(spec) }).toString());
      const perRequest = (cpuMicros(server.pid) - before) / result.total;
      console.log(`${spin} us | ${Math.round(result.requestsPerSecond)} | ${perRequest.toFixed(1)} us | ${(perRequest - spin).toFixed(1)} us`);
    } finally {
      server.kill();
    }
  }
}
