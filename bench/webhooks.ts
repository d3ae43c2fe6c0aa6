/**
 * Issue 24's figures in `npm run bench`: what the webhook outbox costs POST new client, and how many
 * deliveries one instance sends a second.
 *
 * The bench server writes events but does not deliver them (WEBHOOKS_DELIVER=false, as an instance of a
 * deployment that leaves delivery to others): a second business behind the same app has one endpoint
 * subscribed to client.created, and POST new client there is timed in the same paired rounds as POST
 * new client on the business with none. Then a second server process on the same store, delivering,
 * drains the backlog those creates left to a local receiver (bench/receiver.mjs, answering 204).
 */
import { startScript, type Target } from './anchors.js';
import type { Seeded } from './seed.js';
import type { Server } from './stores.js';
import type { LoadSpec } from './wrk.js';

export const HOOKED_SCENARIO = 'POST new client (1 webhook)';

async function call(
  url: string,
  method: string,
  path: string,
  token: string | undefined,
  body?: unknown,
): Promise<any> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(token && { authorization: `Bearer ${token}` }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const json = await response.json().catch(() => undefined);
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

export interface Receiver {
  target: Target;
  url: string;
  count: () => Promise<number>;
}

export async function startReceiver(): Promise<Receiver> {
  const target = await startScript('webhook receiver', 'receiver.mjs', [], (url) => ({
    url,
    method: 'GET',
    path: '/',
    headers: {},
    expect: { status: 200 },
  }));
  const url = target.spec.url;
  // A new connection each time: a pooled one may have been closed while the synchronous wrk ran.
  const count = async () => Number(await (await fetch(`${url}/`, { headers: { connection: 'close' } })).text());
  return { target, url: `${url}/`, count };
}

const operatorToken = async (url: string): Promise<string> =>
  (
    await call(url, 'POST', '/authentication', undefined, {
      strategy: 'local',
      email: 'bench@crmkit.local',
      password: 'bench-password-123',
    })
  ).accessToken;

/** A business like the seeded one, behind the same app, with one endpoint subscribed to client.created. */
export async function hookedBusiness(url: string, seeded: Seeded, receiverUrl: string): Promise<string> {
  const operator = await operatorToken(url);
  const urlKey = `hooked-${Date.now()}`;
  await call(url, 'POST', '/admin/v1/businesses', operator, {
    name: 'Bench Business (webhook)',
    country: 'IN',
    urlKey,
  });
  await call(url, 'PUT', `/admin/v1/apps/${seeded.appId}/businesses/${urlKey}`, operator);
  await call(url, 'POST', `/admin/v1/businesses/${urlKey}/webhooks`, operator, {
    url: receiverUrl,
    eventTypes: ['client.created'],
    description: 'bench receiver',
  });
  return urlKey;
}

/** POST new client's spec, sent to another business (its own id prefix, so no id repeats). */
export function onBusiness(spec: LoadSpec, from: string, to: string): LoadSpec {
  return {
    ...spec,
    path: spec.path.replace(`/businesses/${from}/`, `/businesses/${to}/`),
    unique: { ...spec.unique!, prefix: `${spec.unique!.prefix}-${to}` },
  };
}

/** The business's clients, all made by POST new client: as many client.created events wait in the outbox. */
export async function clientCount(url: string, urlKey: string): Promise<number> {
  return (await call(url, 'GET', `/admin/v1/businesses/${urlKey}/clients?$limit=1`, await operatorToken(url))).data[0]
    .total;
}

export interface Delivery {
  backlog: number;
  delivered: number;
  seconds: number;
  deliveriesPerSecond: number;
}

/**
 * Starts a delivering server on the store and watches the receiver until it has the whole backlog (or
 * 10 s pass with nothing arriving). The rate is taken between the first arrival and the last, so the
 * process's start is not in it.
 */
export async function drainRate(
  receiver: Receiver,
  backlog: number,
  startDelivering: () => Promise<Server>,
): Promise<Delivery> {
  const before = await receiver.count();
  const server = await startDelivering();
  try {
    let seen = 0;
    let first: { at: number; seen: number } | undefined;
    let lastAt = Date.now();
    while (seen < backlog && Date.now() - lastAt < 10_000) {
      await new Promise((r) => setTimeout(r, 50));
      const now = (await receiver.count()) - before;
      if (now !== seen) {
        lastAt = Date.now();
        first ??= { at: lastAt, seen: now };
      }
      seen = now;
    }
    const seconds = first ? (lastAt - first.at) / 1000 : 0;
    const rate = first && seconds > 0 ? Math.round((seen - first.seen) / seconds) : 0;
    return { backlog, delivered: seen, seconds: Number(seconds.toFixed(1)), deliveriesPerSecond: rate };
  } finally {
    await server.stop();
  }
}
