import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { ENDPOINTS, CLIENT_BODY, fillPath, type Endpoint } from '../helpers/endpoints.js';
import { FUZZ_SEED } from '../helpers/fuzz-seed.js';
import {
  applyMutation,
  authChoice,
  contentType,
  mutation,
  queryString,
  segment,
  type AuthChoice,
  type Mutation,
} from '../helpers/hostile-arbitraries.js';
import {
  SentLog,
  expectNoPollution,
  expectSafeAnswer,
  prototypeSnapshot,
  sendRaw,
  type RawRequest,
} from '../helpers/hostile.js';
import { createApp, randomAddress, randomKey, seedTenant, selfSignedToken, type Tenant } from '../helpers/seed.js';
import { TEST_ADMIN } from '../helpers/stores.js';

const SEED = FUZZ_SEED;
/** Random requests per store, on top of the fixed matrix (every route × every kind of spoiled body). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 1200);
const BODY_LIMIT = 64 * 1024;
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

interface World {
  tenant: Tenant;
  selfSigned: string;
  /** An app attached to the tenant's business that no request authenticates with: safe to rotate and detach. */
  spareAppId: string;
  address: string;
}

interface Shot {
  endpoint: Endpoint;
  method: string | null;
  params: Record<string, string>;
  query: string;
  auth: AuthChoice;
  contentType: string | undefined;
  mutation: Mutation;
  variant: number;
}

function authHeader(world: World, shot: Shot): string | undefined {
  const app = shot.variant % 2 === 0 ? world.tenant.token : world.selfSigned;
  const right = shot.endpoint.guard === 'operator' ? world.tenant.operator : app;
  const other = shot.endpoint.guard === 'operator' ? app : world.tenant.operator;
  if (shot.auth === 'none') return undefined;
  if (shot.auth === 'right') return `Bearer ${right}`;
  if (shot.auth === 'other') return `Bearer ${other}`;
  return shot.auth.header;
}

/** /authentication is four endpoints in one: each strategy's right body, with real credentials. */
function sampleBody(world: World, shot: Shot): unknown {
  if (shot.endpoint.path !== '/authentication') return shot.endpoint.body;
  const bodies = [
    { strategy: 'app-secret', appId: world.tenant.appId, appSecret: world.tenant.appSecret },
    { strategy: 'local', ...TEST_ADMIN },
    { strategy: 'app-token' },
    { strategy: 'app-iss-app-token' },
  ];
  return bodies[shot.variant % bodies.length];
}

function toRequest(world: World, shot: Shot): RawRequest {
  const headers: Record<string, string> = {};
  const authorization = authHeader(world, shot);
  if (authorization) headers.authorization = authorization;
  const payload = applyMutation(sampleBody(world, shot), shot.mutation, BODY_LIMIT);
  if (payload !== undefined && shot.contentType !== undefined) headers['content-type'] = shot.contentType;
  return {
    method: shot.method ?? shot.endpoint.method,
    url: `${fillPath(shot.endpoint.path, shot.params)}${shot.query}`,
    headers,
    ...(payload !== undefined && { payload }),
    remoteAddress: world.address,
  };
}

function shots(world: World): fc.Arbitrary<Shot> {
  const unknownRoute = fc
    .array(segment(['x', 'api', 'v1', 'admin']), { minLength: 1, maxLength: 5 })
    .map((parts): Endpoint => ({ method: 'GET', path: `/${parts.join('/')}`, guard: 'open' }));
  return fc.record({
    // Routes that read a body get most of the requests: that is where validation has the most to do.
    endpoint: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...ENDPOINTS.filter((e) => e.body !== undefined)) },
      { weight: 3, arbitrary: fc.constantFrom(...ENDPOINTS.filter((e) => e.body === undefined)) },
      { weight: 1, arbitrary: unknownRoute },
    ),
    method: fc.oneof(
      { weight: 7, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
    ),
    params: fc.record({
      urlKey: segment([world.tenant.urlKey]),
      clientId: segment([CLIENT_BODY.clientId, 'fuzz-other']),
      appId: segment([world.spareAppId]),
      pipelineId: segment(['pl_x']),
      leadId: segment(['ld_x']),
      endpointId: segment(['ep_x']),
      eventId: segment(['msg_x']),
      '*': segment(['app.js', 'styles.css', 'favicon.svg', 'index.html', '../package.json']),
    }),
    query: queryString,
    auth: authChoice,
    contentType,
    mutation,
    variant: fc.nat(),
  });
}

/** The fixed part: every route with no token, the wrong kind, and each way of spoiling its body. */
function matrix(): Omit<Shot, 'params'>[] {
  const spoilers: Mutation[] = [
    { kind: 'valid' },
    { kind: 'none' },
    { kind: 'text', text: '{"clientId": ' },
    { kind: 'oversize' },
    { kind: 'splice', at: 0, raw: '{"__proto__":{"polluted":true}}' },
    { kind: 'splice', at: 0, raw: '{"constructor":{"prototype":{"polluted":true}}}' },
    { kind: 'splice', at: 1, raw: `${'['.repeat(20_000)}${']'.repeat(20_000)}` },
    { kind: 'replace', at: 0, value: 'a\u0000b' },
    { kind: 'replace', at: 0, value: '\ud800' },
    { kind: 'whole', value: [] },
    { kind: 'addKey', key: '__proto__', value: { polluted: true } },
  ];
  const base = { method: null, query: '', contentType: 'application/json', variant: 0 };
  return ENDPOINTS.flatMap((endpoint) => [
    { ...base, endpoint, auth: 'none' as const, mutation: { kind: 'valid' as const } },
    { ...base, endpoint, auth: 'other' as const, mutation: { kind: 'valid' as const } },
    { ...base, endpoint, auth: 'right' as const, mutation: { kind: 'valid' as const }, contentType: 'text/plain' },
    ...spoilers.map((m) => ({ ...base, endpoint, auth: 'right' as const, mutation: m })),
  ]);
}

describeEachStore(
  'hostile input on every route',
  (ctx) => {
    let world: World;
    const sent = new SentLog();
    const before = prototypeSnapshot();

    beforeAll(async () => {
      const tenant = await seedTenant(ctx().app, { customFieldsEnabled: true });
      const spare = await createApp(ctx().app, tenant.operator);
      expect(
        (
          await call(ctx().app, 'PUT', `/admin/v1/apps/${spare.appId}/businesses/${tenant.urlKey}`, {
            token: tenant.operator,
          })
        ).status,
      ).toBe(200);
      world = { tenant, selfSigned: await selfSignedToken(tenant), spareAppId: spare.appId, address: randomAddress() };
    });

    it('the catalogue names every route the app serves', () => {
      const tree = ctx().app.printRoutes({ commonPrefix: false });
      const served = [...tree.matchAll(/\(([A-Z, ]+)\)/g)]
        .flatMap((m) => m[1]!.split(', '))
        .filter((method) => method !== 'HEAD');
      expect(served.length).toBe(ENDPOINTS.length);
      for (const e of ENDPOINTS)
        expect(ctx().app.hasRoute({ method: e.method as never, url: e.path }), `${e.method} ${e.path}`).toBe(true);
    });

    it('every route, with no token, the wrong kind of token, and every kind of spoiled body: never a 5xx, always the envelope, no leak', async () => {
      for (const shot of matrix()) {
        const params = {
          urlKey: world.tenant.urlKey,
          clientId: CLIENT_BODY.clientId,
          appId: world.spareAppId,
          pipelineId: 'pl_x',
          leadId: 'ld_x',
          endpointId: 'ep_x',
          eventId: 'msg_x',
          '*': 'app.js',
        };
        const request = toRequest(world, { ...shot, params });
        expectSafeAnswer(
          await sendRaw(ctx().app, request, sent),
          sent,
          `${request.method} ${request.url} ${JSON.stringify(shot.mutation).slice(0, 80)}`,
          request.url,
        );
      }
    }, 60_000);

    it(`${RUNS} random hostile requests: never a 5xx, always the envelope, no leak (seed ${SEED})`, async () => {
      await fc.assert(
        fc.asyncProperty(shots(world), async (shot) => {
          const request = toRequest(world, shot);
          const answer = await sendRaw(ctx().app, request, sent);
          expectSafeAnswer(answer, sent, `${request.method} ${request.url.slice(0, 200)}`, request.url);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    }, 120_000);

    it('afterwards: no prototype polluted, the process healthy, the store ready, and a right request still served', async () => {
      expectNoPollution(before);
      expect((await call(ctx().app, 'GET', '/healthz')).status).toBe(200);
      expect((await call(ctx().app, 'GET', '/readyz')).status).toBe(200);
      const fresh = await seedTenant(ctx().app);
      expect(
        (await call(ctx().app, 'GET', `/api/v1/businesses/${fresh.urlKey}/pipelines`, { token: fresh.token })).status,
      ).toBe(200);
      const clientId = randomKey('after');
      const created = await call(ctx().app, 'POST', `/api/v1/businesses/${fresh.urlKey}/clients`, {
        token: fresh.token,
        body: { ...CLIENT_BODY, clientId },
      });
      expect(created.status).toBe(201);
      expect(
        (await call(ctx().app, 'GET', `/api/v1/businesses/${fresh.urlKey}/clients/${clientId}`, { token: fresh.token }))
          .body.data,
      ).toEqual(created.body.data);
    });
  },
  { bodyLimitBytes: BODY_LIMIT },
);
