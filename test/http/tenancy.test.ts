import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore, type JsonResponse } from '../helpers/app.js';
import { CLIENT_BODY, ENDPOINTS, fillPath } from '../helpers/endpoints.js';
import { appSecretToken, createApp, randomKey, seedTenant, selfSignedToken, type Tenant } from '../helpers/seed.js';

/**
 * An app attached only to business A can neither read nor write anything of business B, on every
 * business endpoint and with either kind of token; the same clientId lives independently in both.
 */
describeEachStore('tenancy: business A and business B', (ctx) => {
  let a: Tenant;
  let b: Tenant;
  let aSelfSigned: string;
  const shared = randomKey('shared');
  const inA = { ...CLIENT_BODY, clientId: shared, name: 'Client of A', email: 'a@a.example' };
  const inB = { name: 'Client of B', clientId: shared, country: 'AE', trnNumber: '100000000000003', isVendor: true };
  const onlyInB = randomKey('only-b');

  const clients = (t: Tenant) => `/api/v1/businesses/${t.urlKey}/clients`;
  const get = (t: Tenant, clientId: string, token = t.token) =>
    call(ctx().app, 'GET', `${clients(t)}/${encodeURIComponent(clientId)}`, { token });
  const create = (t: Tenant, body: unknown, token = t.token) => call(ctx().app, 'POST', clients(t), { token, body });

  beforeAll(async () => {
    a = await seedTenant(ctx().app, { country: 'IN' });
    b = await seedTenant(ctx().app, { country: 'AE', customFieldsEnabled: true });
    aSelfSigned = await selfSignedToken(a);
    expect((await create(b, { clientId: onlyInB, name: 'Only in B' })).status).toBe(201);
  });

  const businessRoutes = ENDPOINTS.filter((e) => e.guard === 'app');
  const refusedRoutes = ENDPOINTS.filter((e) => e.guard === 'refused');

  it.each(
    businessRoutes.flatMap((e) =>
      (['issued', 'self-signed'] as const).map((kind) => [`${e.method} ${e.path}`, kind, e] as const),
    ),
  )(
    '%s of B with a %s token of A: 403 PERMISSION_DENIED, before any query or body check',
    async (_name, kind, endpoint) => {
      const token = kind === 'issued' ? a.token : aSelfSigned;
      const url = fillPath(endpoint.path, { urlKey: b.urlKey, clientId: onlyInB });
      // A query and a body that would each be a 400 on A's own business: 403 comes first.
      const r = await call(ctx().app, endpoint.method as never, `${url}?unknownParameter=1`, {
        token,
        ...(endpoint.body !== undefined && {
          body: { ...(endpoint.body as object), clientId: randomKey('intruder'), zzz: 1 },
        }),
      });
      expect(r.status).toBe(403);
      expect(r.body.data.error.code).toBe('PERMISSION_DENIED');
      expect(JSON.stringify(r.body)).not.toContain('Only in B');
    },
  );

  it.each(refusedRoutes.map((e) => [`${e.method} ${e.path}`, e] as const))(
    "%s of B: 405 before auth, with A's token or none",
    async (_name, endpoint) => {
      const url = fillPath(endpoint.path, { urlKey: b.urlKey, clientId: onlyInB, pipelineId: 'pl_x' });
      for (const token of [a.token, undefined])
        expect((await call(ctx().app, endpoint.method as never, url, { token })).status).toBe(405);
    },
  );

  it("A cannot read B's client by its clientId, and a create A attempted in B stored nothing", async () => {
    expect((await get(b, onlyInB, a.token)).status).toBe(403);
    const intruder = randomKey('intruder');
    expect((await create(b, { clientId: intruder, name: 'Planted' }, a.token)).status).toBe(403);
    expect((await get(b, intruder)).status).toBe(404);
    expect((await get(a, onlyInB)).status).toBe(404); // and in A that clientId simply does not exist
  });

  it('the same clientId created in A and in B is two unrelated clients: both 201 new, each GET its own', async () => {
    const createdA = await create(a, inA);
    const createdB = await create(b, inB);
    expect([createdA.status, createdB.status]).toEqual([201, 201]);
    expect(createdA.body.data.idempotent).toBeUndefined();
    expect(createdB.body.data.idempotent).toBeUndefined();
    expect((await get(a, shared)).body.data).toEqual(createdA.body.data);
    expect((await get(b, shared)).body.data).toEqual(createdB.body.data);
    expect(createdA.body.data).toMatchObject({
      name: 'Client of A',
      gstin: '27AAPFU0939F1ZV',
      balance: { currency: 'INR' },
    });
    expect(createdB.body.data).toMatchObject({
      name: 'Client of B',
      trnNumber: '100000000000003',
      balance: { currency: 'AED' },
    });
  });

  it("retries are judged against each business's own client: identical in A, a conflict with B's details", async () => {
    expect((await create(a, inA)).body.data.idempotent).toBe(true);
    expect((await create(b, inB)).body.data.idempotent).toBe(true);
    expect((await create(a, inB)).status).toBe(409);
  });

  it("an app attached to both businesses sees each business's own client under the same clientId", async () => {
    const both = await createApp(ctx().app, a.operator);
    for (const t of [a, b])
      expect(
        (await call(ctx().app, 'PUT', `/admin/v1/apps/${both.appId}/businesses/${t.urlKey}`, { token: a.operator }))
          .status,
      ).toBe(200);
    const token = await appSecretToken(ctx().app, both.appId, both.appSecret);
    expect((await get(a, shared, token)).body.data.name).toBe('Client of A');
    expect((await get(b, shared, token)).body.data.name).toBe('Client of B');
  });

  it('operator actions in B (documents, archive, delete, a dashboard client, pipelines, custom fields) never touch A', async () => {
    const before = await get(a, shared);
    const pipelinesBefore = await call(ctx().app, 'GET', `/api/v1/businesses/${a.urlKey}/pipelines`, {
      token: a.token,
    });
    const admin = (method: string, path: string, body?: unknown): Promise<JsonResponse> =>
      call(ctx().app, method as never, `/admin/v1/businesses/${b.urlKey}${path}`, {
        token: b.operator,
        ...(body !== undefined && { body }),
      });
    expect((await admin('POST', `/clients/${shared}/documents`, { type: 'invoice', amount: 999 })).status).toBe(201);
    expect(
      (await admin('POST', '/clients', { name: 'Client of A', source: 'DASHBOARD', email: 'a@a.example' })).status,
    ).toBe(201);
    expect(
      (
        await admin('PUT', '/pipelines', {
          pipelines: [{ name: 'B only', stages: [{ name: 'S', state: 'OPEN' }] }],
          stageReasons: [],
        })
      ).status,
    ).toBe(200);
    expect((await admin('PUT', '/custom-fields', { fields: [{ name: 'Tier', type: 'TEXT' }] })).status).toBe(200);
    expect((await admin('POST', `/clients/${shared}/archive`)).status).toBe(200);
    expect((await admin('DELETE', `/clients/${shared}`)).status).toBe(200);

    expect((await get(b, shared)).status).toBe(404);
    expect((await get(a, shared)).body.data).toEqual(before.body.data);
    expect((await call(ctx().app, 'GET', `/api/v1/businesses/${a.urlKey}/pipelines`, { token: a.token })).body).toEqual(
      pipelinesBefore.body,
    );
    const customInA = await create(a, { clientId: randomKey('cf'), name: 'x', customFields: { Tier: 'Gold' } });
    expect(customInA.body.data.error.code).toBe('CUSTOM_FIELDS_NOT_ENABLED');
    const operatorViewA = await call(ctx().app, 'GET', `/admin/v1/businesses/${a.urlKey}/clients/${shared}`, {
      token: a.operator,
    });
    expect(operatorViewA.body.data.status).toBe('active');
  });

  it("the store answers a business's key with another business's clientId as not found, for every method that takes both", async () => {
    const { data } = ctx().store;
    const onlyInA = randomKey('only-a');
    expect((await create(a, { clientId: onlyInA, name: 'Only in A' })).status).toBe(201);
    expect(await data.findClient(b.urlKey, onlyInA)).toBeUndefined();
    expect(await data.setClientStatus(b.urlKey, onlyInA, 'archived', Date.now())).toBe(false);
    expect(await data.addToBalance(b.urlKey, onlyInA, 'invoice', 50_000n)).toBe(false);
    const inserted = await data.insertClient(
      b.urlKey,
      onlyInA,
      'API',
      { clientId: onlyInA, name: 'B side' },
      Date.now(),
    );
    expect(inserted.outcome).toBe('inserted'); // B's own, new client: nothing of A's was found or changed
    const stillA = await get(a, onlyInA);
    expect(stillA.body.data).toMatchObject({ name: 'Only in A', balance: { invoice: 0 } });
    const streamed = new Map<string, unknown>();
    for await (const client of data.streamClients(b.urlKey))
      streamed.set(client.clientId!, (client.data as { name: string }).name);
    expect(streamed.get(onlyInA)).toBe('B side');
    expect(streamed.get(shared)).toBe('Client of B');
    expect((await data.getCustomFields<unknown[]>(a.urlKey))?.document ?? []).toEqual([]);
  });
});
