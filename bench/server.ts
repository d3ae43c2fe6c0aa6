/** What bench/run.ts, compare.ts and instructions.ts share: the server started as `npm start` starts it, CPU readings, the scenarios. */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { LEAD_CONFIG, type Seeded } from './seed.js';
import type { LoadSpec } from './wrk.js';

/** The server runs as `npm start` runs it: that script's environment assignments and node flags. */
const START = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start.split(
  /\s+/,
);
export const SERVER_ENV = Object.fromEntries(
  START.filter((word) => /^[A-Z_]+=/.test(word)).map((word) => word.split('=', 2) as [string, string]),
);
export const SERVER_FLAGS = START.filter((word) => word.startsWith('--'));

/** The environment of a bench server on `port`, besides its store settings. */
export function serverEnv(port: number): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    ...SERVER_ENV,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    HOST: '127.0.0.1',
    ADMIN_EMAIL: 'bench@crmkit.local',
    ADMIN_PASSWORD: 'bench-password-123',
    AUTH_FAILURE_LIMIT: '100000',
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

/** The scenarios, in the order the bench runs them, as wrk sends them and with the answer a check expects. */
export function scenarios(s: Seeded, url: string): [string, LoadSpec][] {
  return [...clientScenarios(s, url), ...leadScenarios(s, url)];
}

function clientScenarios(s: Seeded, url: string): [string, LoadSpec][] {
  const json = { 'content-type': 'application/json' };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const clients = `/api/v1/businesses/${s.urlKey}/clients`;
  const pipelines = `/api/v1/businesses/${s.urlKey}/pipelines`;
  const created = { status: 201, text: '"clientId"' };
  // A new clientId in every request, with e-mail and GSTIN so that derivation runs.
  const [head, tail] = JSON.stringify({
    clientId: '@ID@',
    name: 'Bench Client',
    email: 'bench@example.com',
    gstin: '27AAPFU0939F1ZV',
  }).split('@ID@') as [string, string];
  return [
    [
      'token by app-secret',
      {
        url,
        method: 'POST',
        path: '/authentication',
        headers: json,
        body: JSON.stringify({ strategy: 'app-secret', appId: s.appId, appSecret: s.appSecret }),
        expect: { status: 200, text: '"accessToken"' },
      },
    ],
    [
      'GET pipelines (self-signed)',
      {
        url,
        method: 'GET',
        path: pipelines,
        headers: bearer(s.selfSigned),
        expect: { status: 200, text: '"stageReasons"' },
      },
    ],
    [
      'GET pipelines (issued)',
      {
        url,
        method: 'GET',
        path: pipelines,
        headers: bearer(s.issued),
        expect: { status: 200, text: '"stageReasons"' },
      },
    ],
    [
      'GET client',
      {
        url,
        method: 'GET',
        path: `${clients}/${s.clientIds[0]}`,
        paths: s.clientIds.map((id) => `${clients}/${encodeURIComponent(id)}`),
        headers: bearer(s.issued),
        expect: { status: 200, text: '"clientId"' },
      },
    ],
    [
      // What a browser or an HTTP library sends: the answer (0.9 KB) is below the compression threshold,
      // so it goes as it is, and only the plugin's checks are paid (docs/decisions.md "Compression").
      'GET client (Accept-Encoding)',
      {
        url,
        method: 'GET',
        path: `${clients}/${s.clientIds[0]}`,
        paths: s.clientIds.map((id) => `${clients}/${encodeURIComponent(id)}`),
        headers: { ...bearer(s.issued), 'accept-encoding': 'gzip, deflate, br' },
        expect: { status: 200, text: '"clientId"' },
      },
    ],
    [
      'POST new client',
      {
        url,
        method: 'POST',
        path: clients,
        headers: { ...json, ...bearer(s.issued) },
        unique: { head, tail, prefix: `new-${Date.now()}` },
        refuse: '"idempotent"',
        expect: created,
      },
    ],
    [
      'POST identical retry',
      {
        url,
        method: 'POST',
        path: clients,
        headers: { ...json, ...bearer(s.issued) },
        body: JSON.stringify(s.retryBody),
        expect: { status: 201, text: '"idempotent":true' },
      },
    ],
    // Issue 24: the same creates for a business with one subscribed webhook endpoint (bench/webhooks.ts).
    ...(s.hookedUrlKey
      ? [
          [
            'POST new client (1 webhook)',
            {
              url,
              method: 'POST',
              path: `/api/v1/businesses/${s.hookedUrlKey}/clients`,
              headers: { ...json, ...bearer(s.issued) },
              unique: { head, tail, prefix: `hooked-${Date.now()}` },
              refuse: '"idempotent"',
              expect: created,
            },
          ] as [string, LoadSpec],
        ]
      : []),
  ];
}

/**
 * The leads' scenarios (issue 21). POST new lead names its customer and contact, so each request also
 * creates a client and a contact in the lead's transaction (a form's new enquiry), and resolves a pipeline,
 * stage, tag, member and lead source by name. PATCH stage move cycles the seeded leads (Stage 1 when
 * seeded) between Stage 2 and Stage 3, each with a reason: every request is a stage change with its
 * activity entry. The list filters on a pipeline and the three stages the seeded leads are ever in, so
 * its first page and total stay the same whichever scenarios ran before it.
 */
function leadScenarios(s: Seeded, url: string): [string, LoadSpec][] {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${s.issued}` };
  const get = { authorization: `Bearer ${s.issued}` };
  const leads = `/api/v1/businesses/${s.urlKey}/leads`;
  const paths = s.leadIds.map((id) => `${leads}/${encodeURIComponent(id)}`);
  const create = {
    externalId: '@ID@',
    customer: { name: 'Bench Enquiry Co', phone: '+91 98200 00000', city: 'Pune' },
    contact: { name: 'Bench Person', email: 'person@example.com' },
    pipeline: 'Pipeline 0',
    stage: 'Stage 0',
    subject: 'Bench enquiry',
    budget: { amount: 25000 },
    tags: [LEAD_CONFIG.tag],
    assignedTo: LEAD_CONFIG.member,
    leadSource: 'WEBSITE',
  };
  const [head, tail] = JSON.stringify(create).split('@ID@') as [string, string];
  const moves = [2, 3].map((n) => JSON.stringify({ stage: `Stage ${n}`, stageReasons: [`Reason ${n}`] }));
  const filter = `${leads}?pipeline=${encodeURIComponent('Pipeline 0')}&stage=${encodeURIComponent('Stage 1,Stage 2,Stage 3')}`;
  return [
    [
      'GET lead',
      { url, method: 'GET', path: paths[0]!, paths, headers: get, expect: { status: 200, text: '"leadId"' } },
    ],
    [
      'GET leads (pipeline+stage)',
      { url, method: 'GET', path: filter, headers: get, expect: { status: 200, text: `"total":${s.leadIds.length},` } },
    ],
    [
      'POST new lead',
      {
        url,
        method: 'POST',
        path: leads,
        headers,
        unique: { head, tail, prefix: `new-${Date.now()}` },
        refuse: '"idempotent"',
        expect: { status: 201, text: '"leadId"' },
      },
    ],
    [
      'PATCH stage move',
      {
        url,
        method: 'PATCH',
        path: paths[0]!,
        paths,
        cycle: { bodies: moves, next: 0 },
        headers,
        expect: { status: 200, text: '"stage":"Stage 2"' },
      },
    ],
  ];
}
