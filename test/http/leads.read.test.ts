import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { hostileValue } from '../helpers/hostile-arbitraries.js';
import { expectSafeAnswer, sendRaw, SentLog } from '../helpers/hostile.js';
import { createLead, failure, minimalLead, seedLeadTenant, type LeadTenant } from '../helpers/leads.js';
import { seedTenant } from '../helpers/seed.js';
import { TEST_ADMIN } from '../helpers/stores.js';

describeEachStore("4.3, 4.5, 4.6 and the operator's leads", (ctx) => {
  let t: LeadTenant;
  beforeAll(async () => {
    t = await seedLeadTenant(ctx());
  });
  const get = (path: string, token = t.token) => call(ctx().app, 'GET', path, { token });

  describe('4.3 GET leads/:leadId', () => {
    it('4.3 answers the lead as create did, without idempotent; any query parameter is INVALID_QUERY_FIELD', async () => {
      const lead = await createLead(ctx(), t, { tags: ['Hot'] });
      expect((await get(`${t.leads}/${lead.leadId}`)).body).toEqual({ success: true, data: lead });
      const r = await get(`${t.leads}/${lead.leadId}?fields=all`);
      expect(r.status).toBe(400);
      expect(r.body.data.error.code).toBe('INVALID_QUERY_FIELD');
    });

    it("tenancy: another business's lead, an unknown and a removed lead answer the same 404", async () => {
      const other = await seedLeadTenant(ctx());
      const foreign = await createLead(ctx(), other);
      const removed = await createLead(ctx(), t);
      expect((await call(ctx().app, 'DELETE', `${t.admin}/${removed.leadId}`, { token: t.operator })).status).toBe(200);
      const answers = await Promise.all(
        [foreign.leadId, removed.leadId, 'ld_unknown', '%F0%9F%98%80'].map((id) => get(`${t.leads}/${id}`)),
      );
      for (const a of answers)
        expect(a.body.data.error).toEqual({ code: 'LEAD_NOT_FOUND', message: 'Lead not found', status: 404 });
      // The other business's own app reads it; this business's app cannot reach that business at all.
      expect((await get(`${other.leads}/${foreign.leadId}`, other.token)).status).toBe(200);
      expect((await get(`${other.leads}/${foreign.leadId}`)).status).toBe(403);
      expect(
        (await call(ctx().app, 'PATCH', `${other.leads}/${foreign.leadId}`, { token: t.token, body: { subject: 'x' } }))
          .status,
      ).toBe(403);
    });

    it('guards: no token 401 without a code; an app not attached 403 PERMISSION_DENIED', async () => {
      const lead = await createLead(ctx(), t);
      const none = await call(ctx().app, 'GET', `${t.leads}/${lead.leadId}`);
      expect(none.status).toBe(401);
      expect(none.body.data).toEqual({ message: none.body.message });
      const stranger = await seedTenant(ctx().app);
      const r = await get(`${t.leads}/${lead.leadId}`, stranger.token);
      expect(r.body.data.error.code).toBe('PERMISSION_DENIED');
      expect((await call(ctx().app, 'POST', t.leads, { token: t.operator, body: minimalLead() })).status).toBe(401);
    });
  });

  describe('4.6 unsupported operations: 405, the status alone, before any authentication', () => {
    const cases: [string, string][] = [
      ['PUT', ''],
      ['PATCH', ''],
      ['DELETE', ''],
      ['PUT', '/ld_x'],
      ['DELETE', '/ld_x'],
      ['POST', '/ld_x'],
      ['POST', '/ld_x/activities'],
      ['PUT', '/ld_x/activities'],
      ['PATCH', '/ld_x/activities'],
      ['DELETE', '/ld_x/activities'],
    ];
    it.each(cases)('%s leads%s', async (method, suffix) => {
      const r = await call(ctx().app, method as never, `${t.leads}${suffix}`);
      expect(r.status).toBe(405);
      expect(r.body.data).toEqual({ message: r.body.message });
    });
  });

  describe('4.5 activities', () => {
    it('4.5 oldest first, 50 a page, after continues; a foreign cursor is INVALID_QUERY_VALUE; other parameters INVALID_QUERY_FIELD', async () => {
      const lead = await createLead(ctx(), t);
      for (let i = 0; i < 3; i += 1) {
        const body = Array.from({ length: 20 }, (_, j) => `note ${i * 20 + j}`);
        expect(
          (
            await call(ctx().app, 'PATCH', `${t.leads}/${lead.leadId}`, {
              token: t.token,
              body: { addComments: { body } },
            })
          ).status,
        ).toBe(200);
      }
      const first = await get(`${t.leads}/${lead.leadId}/activities`);
      const page = first.body.data[0];
      expect(page.items).toHaveLength(50);
      expect(page.items[0]).toMatchObject({ type: 'CREATED', toPipeline: 'Sales', toStage: 'New', author: 'API' });
      expect(page.items[1]).toMatchObject({ type: 'COMMENT', body: 'note 0', author: 'API' });
      const second = (await get(`${t.leads}/${lead.leadId}/activities?after=${page.nextCursor}`)).body.data[0];
      expect(second.items.map((e: any) => e.body)).toEqual(Array.from({ length: 11 }, (_, i) => `note ${49 + i}`));
      expect(second.nextCursor).toBeNull();
      const other = await createLead(ctx(), t);
      expect((await get(`${t.leads}/${other.leadId}/activities?after=${page.nextCursor}`)).body.data.error.code).toBe(
        'INVALID_QUERY_VALUE',
      );
      expect((await get(`${t.leads}/${lead.leadId}/activities?$limit=5`)).body.data.error.code).toBe(
        'INVALID_QUERY_FIELD',
      );
      expect((await get(`${t.leads}/${lead.leadId}/activities?after=a&after=b`)).body.data.error.code).toBe(
        'INVALID_QUERY_VALUE',
      );
      expect((await get(`${t.leads}/${lead.leadId}/activities?after=%00`)).body.data.error.code).toBe(
        'INVALID_QUERY_VALUE',
      );
      expect((await get(`${t.leads}/ld_unknown/activities`)).body.data.error.code).toBe('LEAD_NOT_FOUND');
    });
  });

  describe('section 7: the operator side', () => {
    it('7 POST: source DASHBOARD, no externalId (sending one is INVALID_FIELD); the CREATED entry names the operator', async () => {
      const r = await call(ctx().app, 'POST', t.admin, {
        token: t.operator,
        body: { customer: { name: 'Walk-in' }, contact: { name: 'Visitor' }, pipeline: 'Sales', stage: 'New' },
      });
      expect(r.status).toBe(201);
      expect(r.body.data.source).toBe('DASHBOARD');
      expect(r.body.data.externalId).toBeUndefined();
      const refused = await call(ctx().app, 'POST', t.admin, { token: t.operator, body: minimalLead() });
      expect(failure(refused.body)).toEqual({ code: 'INVALID_FIELD', fields: ['externalId:INVALID_FIELD'] });
      const entries = (
        await call(ctx().app, 'GET', `${t.admin}/${r.body.data.leadId}/activities`, { token: t.operator })
      ).body.data[0].items;
      expect(entries[0]).toMatchObject({ type: 'CREATED', author: TEST_ADMIN.email });
      expect((await get(`${t.leads}/${r.body.data.leadId}`)).body.data).toEqual(r.body.data);
    });

    it("7 PATCH by an operator: the STAGE_CHANGE entry's author is the operator's e-mail; every action is audit-logged", async () => {
      const lead = await createLead(ctx(), t);
      const r = await call(ctx().app, 'PATCH', `${t.admin}/${lead.leadId}`, {
        token: t.operator,
        body: { stage: 'Qualified' },
      });
      expect(r.body.data.stage).toBe('Qualified');
      const entries = (await get(`${t.leads}/${lead.leadId}/activities`)).body.data[0].items;
      expect(entries[1]).toMatchObject({ type: 'STAGE_CHANGE', author: TEST_ADMIN.email });
      const audit = await call(ctx().app, 'GET', '/admin/v1/audit', { token: t.operator });
      expect(
        audit.body.data.entries.some((e: any) => e.action === 'lead.edit' && e.detail.leadId === lead.leadId),
      ).toBe(true);
    });

    it('7 audit lines are written with the change they record: one per create, edit and remove; none for a refused edit or a second remove', async () => {
      const created = await call(ctx().app, 'POST', t.admin, {
        token: t.operator,
        body: { customer: { name: 'Audited' }, contact: { name: 'Visitor' }, pipeline: 'Sales', stage: 'New' },
      });
      const leadId = created.body.data.leadId;
      const lines = async () =>
        (await call(ctx().app, 'GET', '/admin/v1/audit?pageSize=100', { token: t.operator })).body.data.entries
          .filter((e: any) => e.detail?.leadId === leadId)
          .map((e: any) => `${e.action} ${e.business}`)
          .sort();
      expect(await lines()).toEqual([`lead.create ${t.urlKey}`]);
      const refused = await call(ctx().app, 'PATCH', `${t.admin}/${leadId}`, {
        token: t.operator,
        body: { stage: 'Nope' },
      });
      expect(refused.status).toBe(400);
      expect(await lines()).toEqual([`lead.create ${t.urlKey}`]);
      expect(
        (await call(ctx().app, 'PATCH', `${t.admin}/${leadId}`, { token: t.operator, body: { subject: 'S' } })).status,
      ).toBe(200);
      expect((await call(ctx().app, 'DELETE', `${t.admin}/${leadId}`, { token: t.operator })).status).toBe(200);
      expect((await call(ctx().app, 'DELETE', `${t.admin}/${leadId}`, { token: t.operator })).status).toBe(404);
      expect(await lines()).toEqual([`lead.create ${t.urlKey}`, `lead.edit ${t.urlKey}`, `lead.remove ${t.urlKey}`]);
    });

    it("7 DELETE removes: invisible to the interface (404), the operator's second DELETE is 404 too, the externalId stays taken", async () => {
      const body = minimalLead();
      const created = await call(ctx().app, 'POST', t.leads, { token: t.token, body });
      const id = created.body.data.leadId;
      expect((await call(ctx().app, 'DELETE', `${t.admin}/${id}`, { token: t.operator })).body.data).toEqual({
        leadId: id,
        removed: true,
      });
      expect((await get(`${t.leads}/${id}`)).status).toBe(404);
      expect((await call(ctx().app, 'GET', `${t.admin}/${id}`, { token: t.operator })).status).toBe(404);
      expect((await call(ctx().app, 'DELETE', `${t.admin}/${id}`, { token: t.operator })).status).toBe(404);
      expect((await call(ctx().app, 'POST', t.leads, { token: t.token, body })).status).toBe(409);
    });

    it('7 an unknown business: 404 BUSINESS_NOT_FOUND', async () => {
      const r = await call(ctx().app, 'POST', '/admin/v1/businesses/no-such-business/leads', {
        token: t.operator,
        body: minimalLead({ externalId: undefined }),
      });
      expect(r.body.data.error.code).toBe('BUSINESS_NOT_FOUND');
    });
  });

  it('hostile values in every field of a create and an edit: never a 5xx, always the envelope, no leak', async () => {
    const sent = new SentLog();
    const lead = await createLead(ctx(), t);
    const keys = [
      'externalId',
      'customer',
      'contact',
      'pipeline',
      'stage',
      'subject',
      'budget',
      'leadSource',
      'assignedTo',
      'tags',
      'customFields',
      'stageReasons',
      'followUpDate',
      'tagsAdd',
      'tagsRemove',
      'addComments',
      'addInternalNotes',
      '__proto__',
    ];
    const nested = ['customer', 'contact', 'budget', 'addComments'];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...keys),
        fc.constantFrom(...nested, ''),
        hostileValue,
        fc.boolean(),
        async (key, inner, value, edit) => {
          const body: Record<string, unknown> = edit ? { subject: 'x' } : minimalLead();
          if (inner) body[inner] = { ...((body[inner] as object) ?? {}), [key]: value };
          else body[key] = value;
          const url = edit ? `${t.leads}/${lead.leadId}` : t.leads;
          const payload = JSON.stringify(body);
          const answer = await sendRaw(
            ctx().app,
            {
              method: edit ? 'PATCH' : 'POST',
              url,
              payload,
              headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
            },
            sent,
          );
          expectSafeAnswer(answer, sent, `${edit ? 'PATCH' : 'POST'} ${payload.slice(0, 200)}`);
        },
      ),
      { numRuns: 150, seed: 21 },
    );
  }, 120_000);
});
