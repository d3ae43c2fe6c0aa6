// @module-tag pooled
import { beforeAll, describe, expect, it } from 'vitest';
import { call, describeEachStore, type TestApp } from '../helpers/app.js';
import { failure, minimalLead, newExternalId, seedLeadTenant, type LeadTenant } from '../helpers/leads.js';

/** Rows of a business's clients and contacts: a retry must create neither. */
async function counts(ctx: TestApp, urlKey: string) {
  const db = ctx.store.leads.db;
  const business = db.selectFrom('businesses').select('id').where('url_key', '=', urlKey);
  const [clients, contacts, leads] = await Promise.all([
    db
      .selectFrom('clients')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('business_pk', '=', business)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('contacts')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('business_pk', '=', business)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('leads')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('business_pk', '=', business)
      .executeTakeFirstOrThrow(),
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
    const body = minimalLead({
      tags: ['Hot', 'VIP'],
      budget: { amount: 10 },
      leadSource: 'WEBSITE',
      stage: 'Won',
      stageReasons: ['Price'],
    });
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
      externalId,
      customer: { name: 'Asha Traders', phone: '+91 98200-00000' },
      contact: { name: 'Asha', email: 'asha@example.com' },
      pipeline: 'Sales',
      stage: 'New',
      tags: ['Hot', 'VIP'],
      leadSource: 'WEBSITE',
      assignedTo: 'asha@example.com',
      budget: { amount: 5 },
    });
    expect(first.status).toBe(201);
    const before = await counts(ctx(), t.urlKey);
    const retry = await post({
      externalId: ` ${externalId} `,
      customer: { name: ' Asha Traders ', phone: '(91) 9820000000', country: 'in' },
      contact: { name: 'Asha', email: 'ASHA@example.com', country: 'IN' },
      pipeline: 'Sales ',
      stage: 'New',
      tags: ['vip', 'hot', 'HOT'],
      leadSource: 'Website',
      assignedTo: 'Asha@Example.com',
      budget: { amount: 5.0, currency: 'inr' },
      subject: null,
    });
    expect(retry.status).toBe(201);
    expect(retry.body.data.idempotent).toBe(true);
    expect(retry.body.data.leadId).toBe(first.body.data.leadId);
    expect(await counts(ctx(), t.urlKey)).toEqual(before);
  });

  it("4.1 the lead as it is now: edits since the create are in the retry's answer", async () => {
    const body = minimalLead();
    const first = await post(body);
    const patched = await call(ctx().app, 'PATCH', `${t.leads}/${first.body.data.leadId}`, {
      token: t.token,
      body: { subject: 'Edited' },
    });
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
    expect(conflict.body.data.error).toMatchObject({
      code: 'IDEMPOTENCY_CONFLICT',
      existingLeadId: first.body.data.leadId,
    });
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

  describe('issue 34: retries that always resolve', () => {
    const FIELDS = [
      { id: 'lf_size', name: 'Team size', type: 'NUMBER' },
      { id: 'lf_tier', name: 'Tier', type: 'SELECT', options: ['Gold', 'Silver'] },
      { id: 'lf_gone', name: 'Legacy', type: 'TEXT', isArchived: true },
    ];
    const retryAfter = async (change: (own: LeadTenant) => Promise<void>) => {
      const own = await seedLeadTenant(ctx());
      const body = minimalLead({ customFields: { 'Team size': 12, Tier: 'Gold' } });
      const first = await call(ctx().app, 'POST', own.leads, { token: own.token, body });
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      await change(own);
      const again = await call(ctx().app, 'POST', own.leads, { token: own.token, body });
      return { own, body, first: first.body.data, again };
    };

    it('4.1 a retry after a custom field it used was archived: 201 idempotent (that value takes no part)', async () => {
      const { own, body, first, again } = await retryAfter(async (own) => {
        const fields = FIELDS.map((f) => (f.id === 'lf_tier' ? { ...f, isArchived: true } : f));
        expect(
          (
            await call(ctx().app, 'PUT', `/admin/v1/businesses/${own.urlKey}/lead-custom-fields`, {
              token: own.operator,
              body: { fields },
            })
          ).status,
        ).toBe(200);
      });
      expect(again.status, JSON.stringify(again.body)).toBe(201);
      expect(again.body.data).toMatchObject({ leadId: first.leadId, idempotent: true });
      // Still a conflict when what remains differs, and still a 400 for a new externalId.
      const changed = await call(ctx().app, 'POST', own.leads, {
        token: own.token,
        body: { ...body, customFields: { 'Team size': 13, Tier: 'Gold' } },
      });
      expect(changed.body.data.error).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT', existingLeadId: first.leadId });
      const fresh = await call(ctx().app, 'POST', own.leads, {
        token: own.token,
        body: { ...body, externalId: newExternalId() },
      });
      expect(fresh.status).toBe(400);
      expect(failure(fresh.body).code).toBe('INVALID_CUSTOM_FIELD');
    });

    it('4.1 a retry after custom fields were turned off: 201 idempotent; a new create is still refused', async () => {
      const { own, body, first, again } = await retryAfter(async (own) => {
        expect(
          (
            await call(ctx().app, 'PATCH', `/admin/v1/businesses/${own.urlKey}`, {
              token: own.operator,
              body: { customFieldsEnabled: false },
            })
          ).status,
        ).toBe(200);
      });
      expect(again.status, JSON.stringify(again.body)).toBe(201);
      expect(again.body.data).toMatchObject({ leadId: first.leadId, idempotent: true });
      const fresh = await call(ctx().app, 'POST', own.leads, {
        token: own.token,
        body: { ...body, externalId: newExternalId() },
      });
      expect(fresh.status).toBe(400);
      expect(failure(fresh.body).code).toBe('CUSTOM_FIELDS_NOT_ENABLED');
    });

    it('4.1 with a linked customer.clientId, country "IN" sent equals country omitted, both ways', async () => {
      const clientId = `c-in-${newExternalId()}`;
      expect(
        (
          await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, {
            token: t.token,
            body: { clientId, name: 'Client IN' },
          })
        ).status,
      ).toBe(201);
      for (const [sent, retried] of [
        [{}, { country: 'IN' }],
        [{ country: 'IN' }, {}],
      ]) {
        const body = minimalLead({ customer: { clientId, ...sent } });
        expect((await post(body)).status).toBe(201);
        const again = await post({ ...body, customer: { clientId, ...retried } });
        expect(again.status, JSON.stringify(again.body)).toBe(201);
        expect(again.body.data.idempotent).toBe(true);
      }
    });
  });
});
