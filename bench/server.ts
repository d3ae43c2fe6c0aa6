/** What bench/run.ts and bench/compare.ts share: the server started as `npm start` starts it, CPU readings, the scenarios. */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Seeded } from './seed.js';

/** The server runs as `npm start` runs it: that script's environment assignments and node flags. */
const START = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start.split(/\s+/);
export const SERVER_ENV = Object.fromEntries(START.filter((word) => /^[A-Z_]+=/.test(word)).map((word) => word.split('=', 2) as [string, string]));
export const SERVER_FLAGS = START.filter((word) => word.startsWith('--'));

/** The environment of a bench server on `port`, besides its store settings. */
export function serverEnv(port: number): Record<string, string> {
  return {
    ...process.env as Record<string, string>, ...SERVER_ENV, NODE_ENV: 'production', LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1',
    ADMIN_EMAIL: 'bench@crmkit.local', ADMIN_PASSWORD: 'bench-password-123', AUTH_FAILURE_LIMIT: '100000',
  };
}

export async function waitFor(url: string, child: ChildProcess, seconds = 30): Promise<void> {
  for (let i = 0; i < seconds * 10; i++) {
    if (child.exitCode !== null) throw new Error(`process exited during start (${child.exitCode})`);
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no answer from ${url}`);
}

/** CPU time (µs) each process has used so far; /proc counts in clock ticks of 10 ms. Gone processes are left out. */
export function cpuByProcess(pids: number[]): Map<number, number> {
  const used = new Map<number, number>();
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      used.set(pid, (Number(fields[11]) + Number(fields[12])) * 10_000);
    } catch {
      // gone
    }
  }
  return used;
}

export function scenarios(s: Seeded, url: string): [string, Record<string, unknown>][] {
  const json = { 'content-type': 'application/json' };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const clients = `/api/v1/businesses/${s.urlKey}/clients`;
  const leads = `/api/v1/businesses/${s.urlKey}/leads`;
  return [
    ['token by app-secret', { url, method: 'POST', path: '/authentication', headers: json, body: { strategy: 'app-secret', appId: s.appId, appSecret: s.appSecret }, expectStatus: 200, expectText: '"accessToken"' }],
    ['GET pipelines (self-signed)', { url, method: 'GET', path: `/api/v1/businesses/${s.urlKey}/pipelines`, headers: bearer(s.selfSigned), expectStatus: 200, expectText: '"stageReasons"' }],
    ['GET pipelines (issued)', { url, method: 'GET', path: `/api/v1/businesses/${s.urlKey}/pipelines`, headers: bearer(s.issued), expectStatus: 200, expectText: '"stageReasons"' }],
    ['GET client', { url, method: 'GET', path: `${clients}/${s.clientIds[0]}`, randomPaths: s.clientIds.map((id) => `${clients}/${encodeURIComponent(id)}`), headers: bearer(s.issued), expectStatus: 200, expectText: '"clientId"' }],
    ['POST new client', { url, method: 'POST', path: clients, headers: { ...json, ...bearer(s.issued) }, uniqueClients: `new-${Date.now()}`, expectStatus: 201, expectText: '"clientId"' }],
    ['POST identical retry', { url, method: 'POST', path: clients, headers: { ...json, ...bearer(s.issued) }, body: s.retryBody, expectStatus: 201, expectText: '"idempotent":true' }],
    ['GET lead', { url, method: 'GET', path: `${leads}/${s.leadIds[0]}`, randomPaths: s.leadIds.map((id) => `${leads}/${id}`), headers: bearer(s.issued), expectStatus: 200, expectText: '"leadId"' }],
    ['POST new lead', { url, method: 'POST', path: leads, headers: { ...json, ...bearer(s.issued) }, uniqueLeads: `new-${Date.now()}`, expectStatus: 201, expectText: '"leadId"' }],
    ['PATCH stage move', {
      url, method: 'PATCH', path: `${leads}/${s.leadIds[0]}`, randomPaths: s.leadIds.map((id) => `${leads}/${id}`), headers: { ...json, ...bearer(s.issued) },
      stageMoves: [2, 3, 4, 1].map((n) => ({ stage: `Stage ${n}`, stageReasons: [`Reason ${n}`] })), expectStatus: 200, expectText: '"stageReasons":["Reason',
    }],
  ];
}
