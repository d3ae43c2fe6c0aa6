import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPostgres, openSqlite } from '../../src/storage/db.js';
import { call, describeEachStore } from '../helpers/app.js';
import { randomKey, seedTenant, type Tenant } from '../helpers/seed.js';

/**
 * A create keeps its answer's lifelong members as JSON text (records.ts StoredAnswerParts), and a read
 * answers from them. A row without them, written before they were kept, or kept in another format, must
 * answer exactly as one with them: this suite makes such rows through a second connection, as an older
 * build would have left them.
 */
describeEachStore('client answers from the parts kept at create', (ctx) => {
  let t: Tenant;
  let raw: Kysely<unknown>;
  const clients = () => `/api/v1/businesses/${t.urlKey}/clients`;
  const body = (clientId: string) => ({
    clientId, name: 'Kept Answers Ltd', email: 'Billing@Kept.example', gstin: '27AAPFU0939F1ZV', city: 'Pune',
    shippingDetails: [{ name: 'Dock', city: 'Mumbai', country: 'IN', customHeaders: [{ label: 'Gate', value: '4' }] }],
    bankAccounts: [{ bankAccountName: 'HDFC', bankAccountNumber: '0001', ifscCode: 'HDFC0000001' }],
    customFields: { Region: 'West', Tier: 'Gold', Score: 3 },
  });

  beforeAll(async () => {
    t = await seedTenant(ctx().app, { customFieldsEnabled: true });
    const fields = [{ name: 'Region', type: 'TEXT' }, { name: 'Tier', type: 'SELECT', options: ['Gold', 'Silver'] }, { name: 'Score', type: 'NUMBER' }];
    expect((await call(ctx().app, 'PUT', `/admin/v1/businesses/${t.urlKey}/custom-fields`, { token: t.operator, body: { fields } })).status).toBe(200);
    const { config } = ctx();
    raw = (config.databaseUrl ? openPostgres(config.databaseUrl, 1) : openSqlite(config.dataDir)).db as Kysely<unknown>;
  });

  afterAll(async () => {
    await raw?.destroy();
  });

  /** The answer with what differs between clients by nature (their keys and times) made equal. */
  const comparable = (data: Record<string, unknown>) => JSON.stringify({ ...data, clientId: 'k', createdAt: 't', updatedAt: 't' });

  it('rows without parts, and rows whose parts are of another format, answer exactly as rows with them', async () => {
    const [kept, unkept, otherFormat] = [randomKey('kept'), randomKey('unkept'), randomKey('other')];
    for (const clientId of [kept, unkept, otherFormat]) {
      expect((await call(ctx().app, 'POST', clients(), { token: t.token, body: body(clientId) })).status).toBe(201);
    }
    await sql`update clients set answer_head = null, answer_format = null, custom_values = null where client_id = ${unkept}`.execute(raw);
    // A head of a format this build does not know is never served, however it reads.
    await sql`update clients set answer_head = ${'{"clientId":"stale"'}, answer_format = ${0} where client_id = ${otherFormat}`.execute(raw);

    // What a read presents afresh: renamed and archived fields, and the balance.
    const defs = (await call(ctx().app, 'GET', `/admin/v1/businesses/${t.urlKey}/custom-fields`, { token: t.operator })).body.data as { name: string }[];
    const changed = defs.map((f) => (f.name === 'Region' ? { ...f, name: 'Zone' } : f.name === 'Tier' ? { ...f, isArchived: true } : f));
    expect((await call(ctx().app, 'PUT', `/admin/v1/businesses/${t.urlKey}/custom-fields`, { token: t.operator, body: { fields: changed } })).status).toBe(200);
    for (const clientId of [kept, unkept, otherFormat]) {
      const added = await call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/clients/${clientId}/documents`, { token: t.operator, body: { type: 'invoice', amount: 12.5 } });
      expect(added.status).toBe(201);
    }

    const answers = await Promise.all([kept, unkept, otherFormat].map((clientId) => call(ctx().app, 'GET', `${clients()}/${clientId}`, { token: t.token })));
    for (const [i, answer] of answers.entries()) {
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.body.data.clientId).toBe([kept, unkept, otherFormat][i]);
    }
    const first = answers[0]!.body.data;
    expect(first.customFields).toEqual({ Zone: 'West', Score: 3 });
    expect(first.balance).toMatchObject({ invoice: 12.5, currency: 'INR' });
    expect(first.shippingDetails[0].customHeaders).toEqual([{ label: 'Gate', value: '4' }]);
    expect(answers.map((a) => comparable(a.body.data))).toEqual(Array(3).fill(comparable(first)));

    // The retry answers the same way, and so does the operator's view.
    for (const [i, clientId] of [kept, unkept, otherFormat].entries()) {
      const retry = await call(ctx().app, 'POST', clients(), { token: t.token, body: { ...body(clientId), customFields: { Zone: 'West', Score: 3 } } });
      expect(retry.status, JSON.stringify(retry.body)).toBe(201);
      expect(retry.body.data).toEqual({ ...answers[i]!.body.data, idempotent: true });
      const operator = await call(ctx().app, 'GET', `/admin/v1/businesses/${t.urlKey}/clients/${clientId}`, { token: t.operator });
      expect(operator.body.data).toEqual({ ...answers[i]!.body.data, status: 'active' });
    }
  });

  it('a new client answers its create and its reads alike, with the envelope and headers of every answer', async () => {
    const clientId = randomKey('fresh');
    const created = await call(ctx().app, 'POST', clients(), { token: t.token, body: { ...body(clientId), customFields: { Score: 1 } } });
    expect(created.status).toBe(201);
    expect(created.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(created.headers['cache-control']).toBe('no-store');
    expect(created.body.success).toBe(true);
    expect(created.body.data.idempotent).toBeUndefined();
    const read = await call(ctx().app, 'GET', `${clients()}/${clientId}`, { token: t.token });
    expect(read.body).toEqual(created.body);
    expect(read.headers['cache-control']).toBe('no-store');
  });
});
