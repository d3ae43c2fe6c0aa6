import { SignJWT, importPKCS8 } from 'jose';

export interface Seeded {
  urlKey: string;
  appId: string;
  appSecret: string;
  issued: string;
  selfSigned: string;
  clientIds: string[];
  retryBody: Record<string, unknown>;
  /** Leads in Pipeline 0, Stage 1, each for one of the seeded clients, tagged and assigned (LEAD_CONFIG). */
  leadIds: string[];
  /** A second business behind the app, with one webhook endpoint subscribed to client.created (bench/webhooks.ts). */
  hookedUrlKey?: string;
}

async function call(
  url: string,
  method: string,
  path: string,
  token: string | undefined,
  body?: unknown,
  retried = false,
): Promise<any> {
  const response = await send(url, method, path, token, body).catch((error: unknown) => {
    // A pooled keep-alive socket the server closed while the synchronous load generator ran: every
    // call here is safe to repeat (client creates are idempotent), so once more on a new socket.
    if (retried || (error as { cause?: { code?: string } }).cause?.code !== 'UND_ERR_SOCKET') throw error;
    return undefined;
  });
  if (!response) return call(url, method, path, token, body, true);
  const json = await response.json().catch(() => undefined);
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

function send(url: string, method: string, path: string, token: string | undefined, body?: unknown): Promise<Response> {
  return fetch(`${url}${path}`, {
    method,
    headers: {
      ...(token && { authorization: `Bearer ${token}` }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
}

/** What lead writes resolve besides the pipelines: a tag and a member (and the default lead sources). */
export const LEAD_CONFIG = { tag: 'Bench', member: 'rep@bench.example' };

/** 3 pipelines of 8 stages and 20 reasons, as issue 7 sets the GET pipelines scenario. */
function pipelineConfig() {
  const stageReasons = Array.from({ length: 20 }, (_, i) => ({ key: `reason-${i}`, label: `Reason ${i}` }));
  const states = ['NEW', 'OPEN', 'OPEN', 'OPEN', 'OPEN', 'CLOSED', 'DROPPED', 'REJECTED'];
  const pipelines = Array.from({ length: 3 }, (_, p) => ({
    name: `Pipeline ${p}`,
    description: `Bench pipeline ${p}`,
    isPrimary: p === 0,
    stages: states.map((state, s) => ({
      name: `Stage ${s}`,
      state,
      reasons: [`reason-${s}`, `reason-${s + 8}`],
      labels: ['bench'],
      closure: s * 10,
      decayThresholdHours: 72,
    })),
  }));
  return { pipelines, stageReasons };
}

export async function seedBench(url: string, clientCount: number): Promise<Seeded> {
  const operator = (
    await call(url, 'POST', '/authentication', undefined, {
      strategy: 'local',
      email: 'bench@crmkit.local',
      password: 'bench-password-123',
    })
  ).accessToken;
  const urlKey = `bench-${Date.now()}`;
  await call(url, 'POST', '/admin/v1/businesses', operator, { name: 'Bench Business', country: 'IN', urlKey });
  const app = (await call(url, 'POST', '/admin/v1/apps', operator, { name: 'bench app' })).data;
  await call(url, 'PUT', `/admin/v1/apps/${app.appId}/businesses/${urlKey}`, operator);
  await call(url, 'PUT', `/admin/v1/businesses/${urlKey}/pipelines`, operator, pipelineConfig());
  await call(url, 'PUT', `/admin/v1/businesses/${urlKey}/tags`, operator, { tags: [{ name: LEAD_CONFIG.tag }] });
  await call(url, 'PUT', `/admin/v1/businesses/${urlKey}/members`, operator, {
    members: [{ email: LEAD_CONFIG.member, name: 'Bench Rep' }],
  });
  const issued = (
    await call(url, 'POST', '/authentication', undefined, {
      strategy: 'app-secret',
      appId: app.appId,
      appSecret: app.appSecret,
    })
  ).accessToken;
  const now = Math.floor(Date.now() / 1000);
  const selfSigned = await new SignJWT({
    appId: app.appId,
    iss: app.appId,
    aud: app.audience,
    sub: 'AppAuth',
    iat: now,
    exp: now + 3600,
  })
    .setProtectedHeader({ alg: 'ES256' })
    .sign(await importPKCS8(app.privateKeyPem, 'ES256'));

  const clientIds = await seedClients(url, urlKey, issued, clientCount);
  const retryBody = {
    clientId: 'retry-client',
    name: 'Retry Co',
    email: 'retry@example.com',
    gstin: '27AAPFU0939F1ZV',
    bankAccounts: [{ bankAccountName: 'HDFC', bankAccountNumber: '1' }],
  };
  await call(url, 'POST', `/api/v1/businesses/${urlKey}/clients`, issued, retryBody);
  const leadIds = await seedLeads(url, urlKey, issued, clientIds, Math.min(clientCount, 1000));
  return { urlKey, appId: app.appId, appSecret: app.appSecret, issued, selfSigned, clientIds, retryBody, leadIds };
}

/** Creates `count` leads through the API (32 at a time), each for a seeded client, and answers their leadIds. */
async function seedLeads(
  url: string,
  urlKey: string,
  token: string,
  clientIds: string[],
  count: number,
): Promise<string[]> {
  const leadIds: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = next++;
      const body = {
        externalId: `seed-${n}`,
        customer: { clientId: clientIds[n % clientIds.length] },
        contact: { name: `Contact ${n}`, email: `contact${n}@example.com` },
        pipeline: 'Pipeline 0',
        stage: 'Stage 1',
        subject: `Seeded lead ${n}`,
        budget: { amount: 1000 + n },
        tags: [LEAD_CONFIG.tag],
        assignedTo: LEAD_CONFIG.member,
        leadSource: 'WEBSITE',
      };
      leadIds.push((await call(url, 'POST', `/api/v1/businesses/${urlKey}/leads`, token, body)).data.leadId);
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
  return leadIds;
}

/** Creates `count` more clients through the API (32 at a time) and answers their clientIds. */
export async function seedClients(url: string, urlKey: string, token: string, count: number): Promise<string[]> {
  const clientIds: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const clientId = `client-${Math.random().toString(36).slice(2)}-${next++}`;
      await call(url, 'POST', `/api/v1/businesses/${urlKey}/clients`, token, {
        clientId,
        name: `Client ${clientId}`,
        email: `${clientId}@example.com`,
        city: 'Pune',
      });
      clientIds.push(clientId);
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
  return clientIds;
}
