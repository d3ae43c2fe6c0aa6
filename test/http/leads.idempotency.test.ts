// @module-tag pooled
import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore, type TestApp } from '../helpers/app.js';
import { failure, minimalLead, newExternalId, seedLeadTenant, type LeadTenant } from '../helpers/leads.js';

/** Rows of a business's clients and contacts: a retry must create neither. */
async function counts(ctx: TestApp, urlKey: string) {
  const db = ctx.store.leads.db;
  const business = db.selectFrom('businesses').select('id').where('url_key', '=', urlKey);
  const [clients, contacts, leads] = await Promise.all([
    db.selectFrom('clients').select((eb) => eb.fn.countAll().as('n')).where('business_pk', '=', business).executeTakeFirstOrThrow(),
    db.selectFrom('contacts').select((eb) => eb.fn.countAll().as('n')).where('business_pk', '=', business).executeTakeFirstOrThrow(),
    db.selectFrom('leads').select((eb) => eb.fn.countAll().as('n')).where('business_pk', '=', business).executeTakeFirstOrThrow(),
  ]);
  return { clients: Number(clients.n), contacts: Number(contacts.n), leads: Number(leads.n) };
}

describeEachStore('4.1 idempotent create', (ctx) => {
  let t: LeadTenant;
  beforeAll(async () => {
    t = await seedLeadTenant(ctx());
  });
  const post = (body: unknown) => call(ctx().app, 'POST', t.leads, { token: t.token, body });

  it('4.1 the same externalId and details: 201 with the lead, idempotent: true, nothing created', async () => {
    const body = minimalLead({ tags: ['Hot', 'VIP'], budget: { amount: 10 }, leadSource: 'WEBSITE', stage: 'Won', stageReasons: ['Price'] });
    const first = await post(body);
    expect(first.status).toBe(201);
    expect(first.body.data.idempotent).toBeUndefined();
    const before = await counts(ctx(), t.urlKey);
    const again = await post(body);
    expect(again.status).toBe(201);
    expect(again.body.data).toEqual({ ...first.body.data, idempotent: true });
    expect(await counts(ctx(), t.urlKey)).toEqual(before);
  });

  it('4.1 normalised comparison: trimming, case, phone format, defaults, names by what they resolve to, tags as a set', async () => {
    const externalId = newExternalId();
    const first = await post({
      externalId, customer: { name: 'Asha Traders', phone: '+91 98200-00000' }, contact: { name: 'Asha', email: 'asha@example.com' },
      pipeline: 'Sales', stage: 'New', tags: ['Hot', 'VIP'], leadSource: 'WEBSITE', assignedTo: 'asha@example.com', budget: { amount: 5 },
    });
    expect(first.status).toBe(201);
    const before = await counts(ctx(), t.urlKey);
    const retry = await post({
      externalId: ` ${externalId} `, customer: { name: ' Asha Traders ', phone: '(91) 9820000000', country: 'in' },
      contact: { name: 'Asha', email: 'ASHA@example.com', country: 'IN' }, pipeline: 'Sales ', stage: 'New', tags: ['vip', 'hot', 'HOT'],
      leadSource: 'Website', assignedTo: 'Asha@Example.com', budget: { amount: 5.0, currency: 'inr' }, subject: null,
    });
    expect(retry.status).toBe(201);
    expect(retry.body.data.idempotent).toBe(true);
    expect(retry.body.data.leadId).toBe(first.body.data.leadId);
    expect(await counts(ctx(), t.urlKey)).toEqual(before);
  });

  it('4.1 the lead as it is now: edits since the create are in the retry\'s answer', async () => {
    const body = minimalLead();
    const first = await post(body);
    const patched = await call(ctx().app, 'PATCH', `${t.leads}/${first.body.data.leadId}`, { token: t.token, body: { subject: 'Edited' } });
    expect(patched.status).toBe(200);
    const again = await post(body);
    expect(again.body.data).toEqual({ ...patched.body.data, idempotent: true });
  });

  it.each([
    ['a different subject', { subject: 'Other' }],
    ['a dropped optional value', { budget: undefined }],
    ['another stage', { stage: 'Qualified' }],
    ['another customer name', { customer: { name: 'Someone else' } }],
    ['another tag', { tags: ['cold'] }],
  ])('4.1 %s: 409 IDEMPOTENCY_CONFLICT with existingLeadId, nothing changes', async (_name, change) => {
    const body = minimalLead({ budget: { amount: 1 }, tags: ['Hot'] });
    const first = await post(body);
    const conflict = await post({ ...body, ...change });
    expect(conflict.status).toBe(409);
    expect(conflict.body.data.error).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT', existingLeadId: first.body.data.leadId });
    const now = await call(ctx().app, 'GET', `${t.leads}/${first.body.data.leadId}`, { token: t.token });
    expect(now.body.data).toEqual(first.body.data);
  });

  it('4.1 400 before 409: a taken externalId with a body that fails validation', async () => {
    const body = minimalLead();
    await post(body);
    const r = await post({ ...body, subject: 'Other', tags: ['nope'] });
    expect(r.status).toBe(400);
    expect(failure(r.body).code).toBe('INVALID_TAG');
  });

  it('4.1 an externalId of a removed lead: 409 without existingLeadId', async () => {
    const body = minimalLead();
    const first = await post(body);
    const removed = await call(ctx().app, 'DELETE', `${t.admin}/${first.body.data.leadId}`, { token: t.operator });
    expect(removed.status).toBe(200);
    const again = await post(body);
    expect(again.status).toBe(409);
    expect(again.body.data.error.code).toBe('IDEMPOTENCY_CONFLICT');
    expect(again.body.data.error.existingLeadId).toBeUndefined();
  });

  it('4.1 externalIds are per business: another business may use the same one', async () => {
    const other = await seedLeadTenant(ctx());
    const body = minimalLead();
    const a = await post(body);
    const b = await call(ctx().app, 'POST', other.leads, { token: other.token, body });
    expect(b.status).toBe(201);
    expect(b.body.data.idempotent).toBeUndefined();
    expect(b.body.data.leadId).not.toBe(a.body.data.leadId);
  });

  it('4.1 concurrent identical creates in one process store one lead, one client and one contact', async () => {
    const body = minimalLead({ customer: { name: 'Race Co' }, contact: { name: 'Racer' } });
    const before = await counts(ctx(), t.urlKey);
    const answers = await Promise.all(Array.from({ length: 12 }, () => post(body)));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
    expect(new Set(answers.map((a) => a.body.data.leadId)).size).toBe(1);
    expect(answers.filter((a) => a.body.data.idempotent === undefined)).toHaveLength(1);
    const after = await counts(ctx(), t.urlKey);
    expect(after).toEqual({ clients: before.clients + 1, contacts: before.contacts + 1, leads: before.leads + 1 });
  });
});
