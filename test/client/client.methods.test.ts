import { beforeAll, expect, it } from 'vitest';
import {
  createClient,
  CrmkitError,
  type Client,
  type ClientCreate,
  type CrmkitClient,
  type Lead,
  type LeadCreate,
  type PipelineConfiguration,
} from '../../client/src/index.js';
import { call, describeEachStore } from '../helpers/app.js';
import { randomKey, seedTenant, type Tenant } from '../helpers/seed.js';

// The TypeScript client against a real listening server: every method, with both kinds of token, and
// every error answer those methods can meet, as a typed CrmkitError.

const CONFIGURATION = {
  pipelines: [
    {
      name: 'Sales',
      isPrimary: true,
      stages: [
        { name: 'New', state: 'NEW' },
        { name: 'Old', state: 'OPEN', isArchived: true },
        { name: 'Won', state: 'CLOSED', reasons: ['price'] },
      ],
    },
    { name: 'Retired', isArchived: true, stages: [] },
  ],
  stageReasons: [{ key: 'price', label: 'Price too high' }],
};

/** What a call threw, as a CrmkitError (fails the test when it did not throw one). */
async function refusal(promise: Promise<unknown>): Promise<CrmkitError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CrmkitError);
  return error as CrmkitError;
}

describeEachStore('TypeScript client against a real server', (ctx) => {
  let baseUrl: string;
  let t: Tenant;
  let bySecret: CrmkitClient;
  let byKey: CrmkitClient;
  beforeAll(async () => {
    baseUrl = await ctx().app.listen({ port: 0, host: '127.0.0.1' });
    t = await seedTenant(ctx().app, { customFieldsEnabled: false });
    expect(
      (
        await call(ctx().app, 'PUT', `/admin/v1/businesses/${t.urlKey}/pipelines`, {
          token: t.operator,
          body: CONFIGURATION,
        })
      ).status,
    ).toBe(200);
    bySecret = createClient({ baseUrl, urlKey: t.urlKey, appId: t.appId, appSecret: t.appSecret, retryDelayMs: 1 });
    byKey = createClient({
      baseUrl,
      urlKey: t.urlKey,
      appId: t.appId,
      privateKeyPem: t.privateKeyPem,
      audience: t.audience,
      retryDelayMs: 1,
    });
  });

  it.each([
    ['app secret', () => bySecret],
    ['self-signed ES256 key', () => byKey],
  ])('pipelines.list with a token from the %s, live only and with archived entries', async (_kind, crm) => {
    const live: PipelineConfiguration = await crm().pipelines.list();
    expect(live.pipelines.map((p) => p.name)).toEqual(['Sales']);
    expect(live.pipelines[0]!.stages.map((s) => s.name)).toEqual(['New', 'Won']);
    expect(live.stageReasons).toEqual([{ key: 'price', label: 'Price too high', isArchived: false }]);
    const all = await crm().pipelines.list({ includeArchived: true });
    expect(all.pipelines.map((p) => [p.name, p.isArchived])).toEqual([
      ['Sales', false],
      ['Retired', true],
    ]);
    expect(all.pipelines[0]!.stages).toHaveLength(3);
  });

  it.each([
    ['app secret', () => bySecret],
    ['self-signed ES256 key', () => byKey],
  ])('clients.create, an identical retry, then clients.get, with the %s', async (_kind, crm) => {
    const body: ClientCreate = {
      clientId: randomKey('tsc'),
      name: '  Asha Traders ',
      gstin: '27AAPFU0939F1ZV',
      phone: '+91 (98200) 12345',
      bankAccounts: [{ bankAccountType: 'CURRENT', isPrimary: true }],
    };
    const created = await crm().clients.create(body);
    expect(created).toMatchObject({
      clientId: body.clientId,
      name: 'Asha Traders',
      panNumber: 'AAPFU0939F',
      gstState: '27',
      phone: '+919820012345',
      source: 'API',
    });
    expect(created.idempotent).toBeUndefined();
    const retried = await crm().clients.create(body);
    expect(retried.idempotent).toBe(true);
    const fetched: Client = await crm().clients.get(body.clientId);
    expect(fetched).toEqual({ ...created });
    expect(fetched.balance.currency).toBe('INR');
  });

  it('leads.create, an identical retry, leads.update (stage move with a reason) and leads.get', async () => {
    const body: LeadCreate = {
      externalId: randomKey('lead'),
      customer: { name: 'Lead Co' },
      contact: { name: 'Lead Person', email: 'Lead@Example.com' },
      pipeline: 'Sales',
      stage: 'New',
    };
    const created = await bySecret.leads.create(body);
    expect(created).toMatchObject({
      externalId: body.externalId,
      pipeline: 'Sales',
      stage: 'New',
      status: 'NEW',
      source: 'API',
      contact: { email: 'lead@example.com' },
    });
    expect((await byKey.leads.create(body)).idempotent).toBe(true);
    const moved: Lead = await bySecret.leads.update(created.leadId, {
      stage: 'Won',
      stageReasons: ['Price too high'],
      budget: { amount: 1200 },
    });
    expect(moved).toMatchObject({
      stage: 'Won',
      status: 'CLOSED',
      stageReasons: ['Price too high'],
      budget: { amount: 1200, currency: 'INR' },
    });
    expect(await byKey.leads.get(created.leadId)).toEqual(moved);
    const refused = await refusal(bySecret.leads.update(created.leadId, { stage: 'Old' }));
    expect([refused.status, refused.code]).toEqual([400, 'INVALID_STAGE']);
    expect((await refusal(bySecret.leads.get('ld_missing'))).code).toBe('LEAD_NOT_FOUND');
  });

  it('a clientId with characters that need encoding in the path reads back', async () => {
    const clientId = `ref/${randomKey('x')}?#% é`;
    await bySecret.clients.create({ clientId, name: 'Encoded' });
    expect((await bySecret.clients.get(clientId)).clientId).toBe(clientId);
  });

  it('400: a CrmkitError with status, the first code, and the errors list in body order', async () => {
    const error = await refusal(
      bySecret.clients.create({ clientId: randomKey('bad'), name: 'Bad', gstin: 'NOT-A-GSTIN', phone: 'call me' }),
    );
    expect(error.name).toBe('CrmkitError');
    expect(error.status).toBe(400);
    expect(error.code).toBe('INVALID_FIELD_VALUE');
    expect(error.errors.map((e) => [e.field, e.code])).toEqual([
      ['gstin', 'INVALID_FIELD_VALUE'],
      ['phone', 'INVALID_FIELD_VALUE'],
    ]);
    expect(error.message).toBe(error.errors[0]!.message);
    expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('400: a name error and a custom field error carry their own codes', async () => {
    const unknown = await refusal(
      bySecret.clients.create({ clientId: randomKey('bad'), name: 'Bad', nickname: 'x' } as ClientCreate),
    );
    expect([unknown.status, unknown.code, unknown.errors[0]!.field]).toEqual([400, 'INVALID_FIELD', 'nickname']);
    const custom = await refusal(
      bySecret.clients.create({ clientId: randomKey('bad'), name: 'Bad', customFields: { Tier: 'Gold' } }),
    );
    expect([custom.status, custom.code]).toEqual([400, 'CUSTOM_FIELDS_NOT_ENABLED']);
  });

  it('401: a wrong app secret, or a self-signed token for the wrong audience, is a CrmkitError with no code', async () => {
    const wrongSecret = createClient({
      baseUrl,
      urlKey: t.urlKey,
      appId: t.appId,
      appSecret: 'not-the-secret',
      retryDelayMs: 1,
    });
    const bySecretError = await refusal(wrongSecret.pipelines.list());
    expect([bySecretError.status, bySecretError.code, bySecretError.errors]).toEqual([401, null, []]);
    const wrongAudience = createClient({
      baseUrl,
      urlKey: t.urlKey,
      appId: t.appId,
      privateKeyPem: t.privateKeyPem,
      audience: 'someone-else',
      retryDelayMs: 1,
    });
    const byKeyError = await refusal(wrongAudience.clients.get('anything'));
    expect([byKeyError.status, byKeyError.code]).toEqual([401, null]);
  });

  it('403: a business the app is not attached to (forBusiness shares the token)', async () => {
    const other = await seedTenant(ctx().app);
    const error = await refusal(bySecret.forBusiness(other.urlKey).pipelines.list());
    expect([error.status, error.code]).toEqual([403, 'PERMISSION_DENIED']);
    expect(bySecret.forBusiness(other.urlKey).urlKey).toBe(other.urlKey);
  });

  it('404: an unknown clientId', async () => {
    const error = await refusal(bySecret.clients.get(randomKey('missing')));
    expect([error.status, error.code]).toEqual([404, 'CLIENT_NOT_FOUND']);
  });

  it('409: the same clientId with different details', async () => {
    const clientId = randomKey('dup');
    await bySecret.clients.create({ clientId, name: 'First' });
    const error = await refusal(bySecret.clients.create({ clientId, name: 'Second' }));
    expect([error.status, error.code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
  });

  it('token() hands out the bearer token the client uses, for calls it does not cover', async () => {
    const token = await bySecret.token();
    const response = await fetch(`${baseUrl}/authentication`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: '{"strategy":"app-token"}',
    });
    expect(response.status).toBe(200);
    expect(await bySecret.token()).toBe(token);
  });
});

/** Compile-time checks (npm run typecheck): bodies and results are typed. Never called. */
export function typeChecks(crm: CrmkitClient): void {
  // @ts-expect-error name is required
  void crm.clients.create({ clientId: 'x' });
  // @ts-expect-error clientType is INDIVIDUAL or COMPANY
  void crm.clients.create({ clientId: 'x', name: 'y', clientType: 'PERSON' });
  void crm.clients.get('x').then((client) => {
    // @ts-expect-error a client has no such field
    void client.nickname;
    const name: string = client.name;
    return name;
  });
}
