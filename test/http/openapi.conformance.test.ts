// @module-tag pooled
import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { operationsOf, type OpenApiDocument, type OperationObject } from '../helpers/openapi.js';
import { createApp, randomKey, seedTenant, type Tenant } from '../helpers/seed.js';
import { TEST_ADMIN } from '../helpers/stores.js';

// call() holds every answer to the document (status listed, body fits its schema); these tests make
// sure every operation is called at least once that way, and that the document's examples work.

type Body = Record<string, unknown>;
type Schema = Record<string, any>;

const FILES: Record<string, string> = { '/assets/{file}': 'app.js', '/docs/{file}': 'docs.js' };

/** Names in examples that must be unique per run (the PostgreSQL test database is shared). */
function freshen(example: unknown): unknown {
  if (typeof example !== 'object' || example === null) return example;
  const body = { ...(example as Body) };
  if (typeof body.urlKey === 'string') body.urlKey = randomKey('doc');
  if (typeof body.email === 'string' && !('strategy' in body)) body.email = `${randomKey('op')}@example.com`;
  if (typeof body.clientId === 'string') body.clientId = randomKey('doc');
  return body;
}

describeEachStore('OpenAPI: every operation answers as documented', (ctx) => {
  let doc: OpenApiDocument;
  let t: Tenant;
  beforeAll(async () => {
    doc = (await call(ctx().app, 'GET', '/openapi.json')).body;
    t = await seedTenant(ctx().app, { customFieldsEnabled: true });
    // Lead routes get a business of their own (its pipelines stay as the lead examples name them:
    // Sales with New and Won, reason "Good price", the tag hot), apart from the pipelines examples.
    lt = await seedTenant(ctx().app, { customFieldsEnabled: true });
    const admin = `/admin/v1/businesses/${lt.urlKey}`;
    const pipelines = {
      pipelines: [
        {
          name: 'Sales',
          isPrimary: true,
          stages: [
            { name: 'New', state: 'NEW' },
            { name: 'Won', state: 'CLOSED', reasons: ['price'] },
          ],
        },
      ],
      stageReasons: [{ key: 'price', label: 'Good price' }],
    };
    expect((await call(ctx().app, 'PUT', `${admin}/pipelines`, { token: lt.operator, body: pipelines })).status).toBe(
      200,
    );
    expect(
      (await call(ctx().app, 'PUT', `${admin}/tags`, { token: lt.operator, body: { tags: [{ name: 'hot' }] } })).status,
    ).toBe(200);
  });
  let lt: Tenant;
  const tenantFor = (path: string) => (/\/leads\b/.test(path) ? lt : t);

  async function newLead(): Promise<string> {
    const body = {
      externalId: randomKey('l'),
      customer: { name: 'Tour' },
      contact: { name: 'Guide' },
      pipeline: 'Sales',
      stage: 'New',
    };
    const created = await call(ctx().app, 'POST', `/api/v1/businesses/${lt.urlKey}/leads`, { token: lt.token, body });
    expect(created.status).toBe(201);
    return created.body.data.leadId;
  }

  async function newClient(): Promise<string> {
    const clientId = randomKey('c');
    const created = await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, {
      token: t.token,
      body: { clientId, name: 'Tour' },
    });
    expect(created.status).toBe(201);
    return clientId;
  }

  /** An invoice of the app's business (section 9.1's example), and a payment on the last one made. */
  let invoiceId = '';
  async function newInvoice(): Promise<string> {
    const body = {
      billedBy: { gstState: '29' },
      billedTo: { name: 'Tour buyer', country: 'IN', gstState: '29' },
      items: [{ name: 'one', rate: 100, quantity: 2, gstRate: 18 }],
    };
    const created = await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/invoices`, { token: t.token, body });
    expect(created.status).toBe(201);
    invoiceId = created.body._id;
    return invoiceId;
  }
  /** The share token of a fresh invoice (the public share page's path parameter). */
  async function newShareToken(): Promise<string> {
    await newInvoice();
    const read = await call(ctx().app, 'GET', `/api/v1/businesses/${t.urlKey}/invoices/${invoiceId}`, {
      token: t.token,
    });
    return String(read.body.share.link).split('/share/invoices/')[1]!;
  }
  async function newPayment(): Promise<string> {
    return (
      await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/invoices/${invoiceId}/payments`, {
        token: t.token,
        body: { amount: 1 },
      })
    ).body._id;
  }

  /** A disabled webhook endpoint (nothing is sent), and the id of a test event queued for it. */
  let endpointId = '';
  async function newEndpoint(): Promise<string> {
    const created = await call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/webhooks`, {
      token: t.operator,
      body: { url: 'https://hooks.example.com/tour', eventTypes: ['client.created'], enabled: false },
    });
    endpointId = created.body.data.id;
    return endpointId;
  }
  async function newSavedFilter(): Promise<string> {
    const saved = await call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/lead-saved-filters`, {
      token: t.operator,
      body: { name: randomKey('filter'), query: 'status=OPEN' },
    });
    return saved.body.data.id;
  }
  async function queuedEvent(): Promise<string> {
    return (
      await call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/webhooks/${endpointId}/test`, {
        token: t.operator,
      })
    ).body.data.eventId;
  }

  /** A concrete request for an operation: its parameters filled from a fresh fixture, its first body example. */
  async function requestFor(path: string, op: OperationObject, example?: unknown) {
    let url = path;
    for (const name of (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name)) {
      const value =
        name === 'urlKey'
          ? tenantFor(path).urlKey
          : name === 'clientId'
            ? await newClient()
            : name === 'appId'
              ? (await createApp(ctx().app, t.operator)).appId
              : name === 'leadId'
                ? await newLead()
                : name === 'endpointId'
                  ? await newEndpoint()
                  : name === 'eventId'
                    ? await queuedEvent()
                    : name === 'invoiceId'
                      ? await newInvoice()
                      : name === 'paymentId'
                        ? await newPayment()
                        : name === 'filterId'
                          ? await newSavedFilter()
                          : name === 'file'
                            ? FILES[path]!
                            : name === 'token'
                              ? await newShareToken()
                              : 'pl_anything';
      url = url.replace(`{${name}}`, encodeURIComponent(value));
    }
    const scheme = Object.keys(op.security?.find((s) => Object.keys(s).length > 0) ?? {})[0];
    const required = op.security?.every((s) => Object.keys(s).length > 0);
    const token = !required ? undefined : scheme === 'appToken' ? tenantFor(path).token : t.operator;
    const media = op.requestBody?.content['application/json'];
    const body = example ?? Object.values(media?.examples ?? {})[0]?.value;
    return { url, token, body: body === undefined ? undefined : freshen(body) };
  }

  async function ownOperator(example: Body): Promise<{ token: string; body: Body }> {
    const account = { email: `${randomKey('op')}@example.com`, password: 'own password of the tour' };
    expect((await call(ctx().app, 'POST', '/admin/v1/operators', { token: t.operator, body: account })).status).toBe(
      201,
    );
    const login = await call(ctx().app, 'POST', '/authentication', { body: { strategy: 'local', ...account } });
    return { token: login.body.accessToken, body: { ...example, currentPassword: account.password } };
  }

  // The vendor's e-invoicing routes answer 501 whatever is sent (invoices-interface 4.8).
  const successOf = (op: OperationObject) =>
    Number(Object.keys(op.responses).find((s) => s.startsWith('2')) ?? (op.responses['501'] ? '501' : '405'));

  it('every operation, called as its first example shows, answers its documented success (or its 405)', async () => {
    const answered: string[] = [];
    for (const { path, method, op } of operationsOf(doc)) {
      if (op.operationId === 'authenticate') continue; // its examples carry placeholders: next test
      let { url, token, body } = await requestFor(path, op);
      // Changing a password ends the caller's other sessions: done by an operator of its own, with its real password.
      if (op.operationId === 'changeOwnPassword') ({ token, body } = await ownOperator(body as Body));
      const response = await call(ctx().app, method.toUpperCase() as never, url, { token, body });
      expect(response.status, `${method} ${url}: ${JSON.stringify(response.body)}`).toBe(successOf(op));
      answered.push(op.operationId);
    }
    expect(answered.length).toBe(operationsOf(doc).length - 1);
    // Every operation in turn (about 150 requests, a few of them PDFs): 25 s through PgBouncer on a
    // quiet machine, so the default 30 s is no margin.
  }, 120_000);

  it('each POST /authentication example works with real credentials in place of the placeholders', async () => {
    const op = doc.paths['/authentication']!.post!;
    const real: Record<string, Body> = {
      appSecret: { appId: t.appId, appSecret: t.appSecret },
      local: { email: TEST_ADMIN.email, password: TEST_ADMIN.password },
      appToken: {},
    };
    for (const [name, example] of Object.entries(op.requestBody!.content['application/json']!.examples!)) {
      const body = { ...(example.value as Body), ...real[name] };
      const response = await call(ctx().app, 'POST', '/authentication', {
        body,
        ...(name === 'appToken' && { token: t.token }),
      });
      expect(response.status, `${name}: ${JSON.stringify(response.body)}`).toBe(200);
    }
  });

  it('the client create example answers exactly the documented answer (timestamps aside), then is an identical retry', async () => {
    const op = doc.paths['/api/v1/businesses/{urlKey}/clients']!.post!;
    const media = op.requestBody!.content['application/json']!;
    const example = Object.values(media.examples!)[0]!.value as Body;
    const body = { ...example, clientId: randomKey('ex') };
    const created = await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, { token: t.token, body });
    expect(created.status).toBe(201);
    const documented = (op.responses['201']!.content!['application/json']!.example as { data: Body }).data;
    const stamps = { clientId: body.clientId, createdAt: expect.any(String), updatedAt: expect.any(String) };
    expect(created.body.data).toEqual({
      ...documented,
      ...stamps,
      balance: { ...(documented.balance as Body), currency: created.body.data.balance.currency },
    });
    const retried = await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, { token: t.token, body });
    expect(retried.body.data.idempotent).toBe(true);
  });

  const resolve = (schema: Schema): Schema =>
    schema.$ref ? (doc.components.schemas[schema.$ref.split('/').pop()] as Schema) : schema;
  const types = (schema: Schema): string[] => [schema.type ?? []].flat();

  /** A value of the member's JSON type (its first enum value or const where it has one). */
  function sample(schema: Schema): unknown {
    if (schema.$ref) return sample(resolve(schema));
    if (schema.oneOf) return sample(schema.oneOf[0]);
    if (schema.const !== undefined) return schema.const;
    if (schema.enum) return schema.enum[0];
    const type = types(schema)[0];
    return type === 'integer' || type === 'number'
      ? 1
      : type === 'boolean'
        ? true
        : type === 'array'
          ? []
          : type === 'object'
            ? {}
            : 'x';
  }

  /** Members that need another in the same request (a lead PATCH's pipeline needs stage: INVALID_FIELD otherwise). */
  const COMPANIONS: Record<string, Body> = { pipeline: { stage: 'x' } };

  /** Bodies that each set one documented member (nested list entries too), with the path errors would name. */
  function memberProbes(
    schema: Schema,
    prefix: Body = {},
    at = '',
    wrap = (entry: Body) => entry,
  ): { path: string; body: Body }[] {
    const probes: { path: string; body: Body }[] = [
      { path: `${at}zzUnknown`, body: wrap({ ...prefix, zzUnknown: 1 }) },
    ];
    for (const [name, raw] of Object.entries(resolve(schema).properties ?? {}) as [string, Schema][]) {
      if (name in prefix) continue;
      probes.push({ path: `${at}${name}`, body: wrap({ ...prefix, ...COMPANIONS[name], [name]: sample(raw) }) });
      const items = raw.items ? resolve(raw.items) : undefined;
      if (items?.properties && at === '') {
        probes.push(...memberProbes(items, {}, `${name}[0].`, (entry) => wrap({ ...prefix, [name]: [entry] })));
      }
    }
    return probes;
  }

  it('every documented body member is accepted by name and JSON type, and a member the document does not name is refused', async () => {
    let probed = 0;
    for (const { path, method, op } of operationsOf(doc)) {
      const schema = op.requestBody?.content['application/json']?.schema as Schema | undefined;
      if (!schema) continue;
      const variants = resolve(schema).oneOf ?? [schema];
      for (const variant of variants as Schema[]) {
        const strategy = variant.properties?.strategy?.const;
        for (const probe of memberProbes(variant, strategy ? { strategy } : {})) {
          const { url, token } = await requestFor(path, op);
          const response = await call(ctx().app, method.toUpperCase() as never, url, { token, body: probe.body });
          const error = response.body?.data?.error;
          const nameErrors = [...(error?.errors ?? [error])].filter(
            (e) => e?.code === 'INVALID_FIELD' && e.field === probe.path,
          );
          const where = `${method} ${path} ${JSON.stringify(probe.body)} → ${response.status} ${JSON.stringify(error)}`;
          if (probe.path.endsWith('zzUnknown')) expect(nameErrors.length, where).toBe(1);
          else expect(nameErrors, where).toEqual([]);
          probed += 1;
        }
      }
    }
    expect(probed).toBeGreaterThan(150);
  });
});
