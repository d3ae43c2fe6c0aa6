// @module-tag pooled
// @module-tag smoke
// @module-tag dates
import { beforeAll, describe, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { createLead, failure, seedLeadTenant, type LeadTenant } from '../helpers/leads.js';

const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

describeEachStore('4.2 PATCH leads', (ctx) => {
  let t: LeadTenant;
  beforeAll(async () => {
    t = await seedLeadTenant(ctx());
  });
  const patch = (leadId: string, body: unknown) =>
    call(ctx().app, 'PATCH', `${t.leads}/${leadId}`, { token: t.token, body });
  const activities = async (leadId: string) =>
    (await call(ctx().app, 'GET', `${t.leads}/${leadId}/activities`, { token: t.token })).body.data[0].items;

  it('4.2 subject and details replace; null clears; the answer is the whole lead, never idempotent', async () => {
    const lead = await createLead(ctx(), t, { subject: 'A', details: 'B' });
    const r = await patch(lead.leadId, { subject: 'New subject', details: null });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ leadId: lead.leadId, subject: 'New subject' });
    expect(r.body.data.details).toBeUndefined();
    expect(r.body.data.idempotent).toBeUndefined();
  });

  it('4.2 budget: amount or currency replace the stored one; null clears; currency alone needs a budget', async () => {
    const lead = await createLead(ctx(), t, { budget: { amount: 100, currency: 'USD' } });
    expect((await patch(lead.leadId, { budget: { amount: 250.5 } })).body.data.budget).toEqual({
      amount: 250.5,
      currency: 'USD',
    });
    expect((await patch(lead.leadId, { budget: { currency: 'eur' } })).body.data.budget).toEqual({
      amount: 250.5,
      currency: 'EUR',
    });
    expect((await patch(lead.leadId, { budget: null })).body.data.budget).toBeUndefined();
    const r = await patch(lead.leadId, { budget: { currency: 'USD' } });
    expect(failure(r.body)).toEqual({ code: 'INVALID_FIELD_VALUE', fields: ['budget.amount:INVALID_FIELD_VALUE'] });
  });

  it('4.2 followUpDate, leadSource and assignedTo: set, null clears; a past date is INVALID_FIELD_VALUE', async () => {
    const lead = await createLead(ctx(), t);
    const set = await patch(lead.leadId, {
      followUpDate: '2999-12-31',
      leadSource: 'Referral',
      assignedTo: 'asha@example.com',
    });
    expect(set.body.data).toMatchObject({
      followUpDate: '2999-12-31T00:00:00.000Z',
      leadSource: 'REFERRAL',
      assignedTo: 'asha@example.com',
    });
    const cleared = await patch(lead.leadId, { followUpDate: null, leadSource: null, assignedTo: null });
    expect(cleared.body.data).toMatchObject({ followUpDate: null, leadSource: null, assignedTo: null });
    const past = await patch(lead.leadId, { followUpDate: '2001-01-01T10:00:00Z' });
    expect(failure(past.body)).toEqual({ code: 'INVALID_FIELD_VALUE', fields: ['followUpDate:INVALID_FIELD_VALUE'] });
  });

  describe('stages and reasons', () => {
    it('4.2 stage alone moves inside the current pipeline; reasons resolve on the destination stage; one STAGE_CHANGE entry', async () => {
      const lead = await createLead(ctx(), t);
      const r = await patch(lead.leadId, { stage: 'Lost', stageReasons: ['Price'] });
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({
        pipeline: 'Sales',
        stage: 'Lost',
        status: 'DROPPED',
        stageReasons: ['Price'],
      });
      const entries = await activities(lead.leadId);
      expect(entries.map((e: any) => e.type)).toEqual(['CREATED', 'STAGE_CHANGE']);
      expect(entries[1]).toMatchObject({
        fromStage: 'New',
        toStage: 'Lost',
        fromPipeline: 'Sales',
        toPipeline: 'Sales',
        reasons: ['Price'],
        author: 'API',
      });
      expect(entries[1].body).toBeUndefined();
    });

    it('4.2 pipeline needs stage in the same request (INVALID_FIELD); pipeline and stage move to another pipeline', async () => {
      const lead = await createLead(ctx(), t);
      expect(failure((await patch(lead.leadId, { pipeline: 'Partners' })).body)).toEqual({
        code: 'INVALID_FIELD',
        fields: ['pipeline:INVALID_FIELD'],
      });
      const moved = await patch(lead.leadId, { pipeline: 'Partners', stage: 'Signed', stageReasons: ['Good fit'] });
      expect(moved.body.data).toMatchObject({
        pipeline: 'Partners',
        stage: 'Signed',
        status: 'CLOSED',
        stageReasons: ['Good fit'],
      });
      expect(failure((await patch(lead.leadId, { stage: 'Lost' })).body).code).toBe('INVALID_STAGE');
    });

    it('4.2 reasons are cleared by a stage change when not sent, kept when the stage does not change, [] clears', async () => {
      const lead = await createLead(ctx(), t, { stage: 'Won', stageReasons: ['Price', 'Good fit'] });
      expect((await patch(lead.leadId, { subject: 'x' })).body.data.stageReasons).toEqual(['Price', 'Good fit']);
      expect((await patch(lead.leadId, { stage: 'Won' })).body.data.stageReasons).toEqual(['Price', 'Good fit']);
      expect((await patch(lead.leadId, { stageReasons: ['Good fit'] })).body.data.stageReasons).toEqual(['Good fit']);
      expect((await patch(lead.leadId, { stageReasons: [] })).body.data.stageReasons).toEqual([]);
      await patch(lead.leadId, { stageReasons: ['Price'] });
      expect((await patch(lead.leadId, { stage: 'Lost' })).body.data).toMatchObject({
        stage: 'Lost',
        stageReasons: [],
      });
    });

    it('3.4 reasons sent alone resolve against the current stage', async () => {
      const lead = await createLead(ctx(), t, { stage: 'Qualified' });
      const r = await patch(lead.leadId, { stageReasons: ['Price'] });
      expect(failure(r.body)).toEqual({
        code: 'INVALID_STAGE_REASON',
        fields: ['stageReasons[0]:INVALID_STAGE_REASON'],
      });
      expect((await patch(lead.leadId, { stageReasons: ['Has budget'] })).body.data.stageReasons).toEqual([
        'Has budget',
      ]);
    });

    it.each([
      ['an archived stage', { stage: 'Old step' }, 'INVALID_STAGE', 'stage'],
      ['a stage of the later same-named pipeline', { stage: 'Second' }, 'INVALID_STAGE', 'stage'],
      ['an archived pipeline', { pipeline: 'Retired', stage: 'Inside archived' }, 'INVALID_PIPELINE', 'pipeline'],
      ['a stage unknown in the pipeline sent', { pipeline: 'Partners', stage: 'Won' }, 'INVALID_STAGE', 'stage'],
    ])('section 3: %s', async (_name, body, code, field) => {
      const lead = await createLead(ctx(), t);
      const r = await patch(lead.leadId, body);
      expect(r.status).toBe(400);
      expect(r.body.data.error.code).toBe(code);
      expect(r.body.data.error.errors[0].field).toBe(field);
    });
  });

  describe('tags and custom fields', () => {
    it('4.2 tags replace the set; [] clears; tagsAdd and tagsRemove keep the rest', async () => {
      const lead = await createLead(ctx(), t, { tags: ['Hot'] });
      expect((await patch(lead.leadId, { tags: ['vip', 'COLD'] })).body.data.tags).toEqual(['VIP', 'cold']);
      expect((await patch(lead.leadId, { tagsAdd: ['hot'], tagsRemove: ['cold'] })).body.data.tags).toEqual([
        'Hot',
        'VIP',
      ]);
      expect((await patch(lead.leadId, { tagsRemove: ['cold'] })).body.data.tags).toEqual(['Hot', 'VIP']);
      expect((await patch(lead.leadId, { tags: [] })).body.data.tags).toEqual([]);
    });

    it.each([
      ['tags with tagsAdd', { tags: ['Hot'], tagsAdd: ['VIP'] }, 'INVALID_FIELD', 'tags'],
      ['a name in tagsAdd and tagsRemove', { tagsAdd: ['Hot'], tagsRemove: ['hot'] }, 'INVALID_FIELD', 'tagsRemove'],
      ['an unknown tag added', { tagsAdd: ['Nope'] }, 'INVALID_TAG', 'tagsAdd'],
    ])('4.2 %s', async (_name, body, code, field) => {
      const lead = await createLead(ctx(), t);
      const r = await patch(lead.leadId, body);
      expect(r.body.data.error.code).toBe(code);
      expect(r.body.data.error.errors[0].field).toBe(field);
    });

    it('4.2 customFields sets the fields named; null clears that field only', async () => {
      const lead = await createLead(ctx(), t, { customFields: { 'Team size': 5, Tier: 'Gold' } });
      expect((await patch(lead.leadId, { customFields: { tier: 'Silver' } })).body.data.customFields).toEqual({
        'Team size': 5,
        Tier: 'Silver',
      });
      expect((await patch(lead.leadId, { customFields: { 'Team size': null } })).body.data.customFields).toEqual({
        Tier: 'Silver',
      });
      expect((await patch(lead.leadId, { customFields: { Tier: null } })).body.data.customFields).toBeUndefined();
      expect(failure((await patch(lead.leadId, { customFields: { Nope: 1 } })).body).code).toBe('INVALID_CUSTOM_FIELD');
    });
  });

  describe('customer and contact', () => {
    it('4.2 snapshot changes only; null clears a member; the client record is untouched', async () => {
      const lead = await createLead(ctx(), t, { customer: { name: 'Snap Co', phone: '+911111', city: 'Pune' } });
      const r = await patch(lead.leadId, {
        customer: { name: 'Snap Co Ltd', city: null },
        contact: { email: 'X@Y.com' },
      });
      expect(r.body.data.customer).toEqual({
        clientId: lead.customer.clientId,
        name: 'Snap Co Ltd',
        country: 'IN',
        phone: '+911111',
      });
      expect(r.body.data.contact.email).toBe('x@y.com');
      const client = await call(ctx().app, 'GET', `/api/v1/businesses/${t.urlKey}/clients/${lead.customer.clientId}`, {
        token: t.token,
      });
      expect(client.body.data.name).toBe('Snap Co');
      expect(failure((await patch(lead.leadId, { customer: { name: null } })).body)).toEqual({
        code: 'INVALID_FIELD_VALUE',
        fields: ['customer.name:INVALID_FIELD_VALUE'],
      });
    });

    it('4.2 clientId relinks and refills from the client, values sent winning; an unknown clientId is CLIENT_NOT_FOUND', async () => {
      await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, {
        token: t.token,
        body: { clientId: 'relink-1', name: 'Relinked', country: 'MY', phone: '+60123' },
      });
      const lead = await createLead(ctx(), t);
      const r = await patch(lead.leadId, { customer: { clientId: 'relink-1', city: 'KL' } });
      expect(r.body.data.customer).toEqual({
        clientId: 'relink-1',
        name: 'Relinked',
        country: 'MY',
        phone: '+60123',
        city: 'KL',
      });
      const missing = await patch(lead.leadId, { customer: { clientId: 'no-such', name: 'X' } });
      expect(missing.status).toBe(400);
      expect(failure(missing.body)).toEqual({
        code: 'CLIENT_NOT_FOUND',
        fields: ['customer.clientId:CLIENT_NOT_FOUND'],
      });
      expect(failure((await patch(lead.leadId, { contact: { contactId: 'no-such' } })).body).code).toBe(
        'CONTACT_NOT_FOUND',
      );
    });

    it('4.2 only while NEW or OPEN after the request: CUSTOMER_CONTACT_NOT_EDITABLE; {} changes nothing', async () => {
      const lead = await createLead(ctx(), t, { stage: 'Won' });
      const r = await patch(lead.leadId, { customer: { name: 'Late' } });
      expect(failure(r.body)).toEqual({
        code: 'CUSTOMER_CONTACT_NOT_EDITABLE',
        fields: ['customer:CUSTOMER_CONTACT_NOT_EDITABLE'],
      });
      expect((await patch(lead.leadId, { customer: {} })).status).toBe(200);
      const reopened = await patch(lead.leadId, { stage: 'Qualified', contact: { name: 'Back again' } });
      expect(reopened.body.data).toMatchObject({ status: 'OPEN', contact: { name: 'Back again' } });
      const closing = await patch(lead.leadId, { stage: 'Lost', customer: { name: 'Too late' } });
      expect(failure(closing.body).code).toBe('CUSTOMER_CONTACT_NOT_EDITABLE');
    });
  });

  describe('comments and notes', () => {
    it('4.2 each body becomes one entry; a retried batch with the same clientRequestId appends nothing', async () => {
      const lead = await createLead(ctx(), t);
      const batch = {
        addComments: { body: ['First', 'Second'], clientRequestId: 'req-1' },
        addInternalNotes: { body: ['Private'], clientRequestId: 'req-1' },
      };
      expect((await patch(lead.leadId, batch)).status).toBe(200);
      expect(
        (await patch(lead.leadId, { addComments: { body: ['Other text'], clientRequestId: 'req-1' } })).status,
      ).toBe(200);
      const entries = await activities(lead.leadId);
      expect(entries.map((e: any) => [e.type, e.body ?? null])).toEqual([
        ['CREATED', null],
        ['COMMENT', 'First'],
        ['COMMENT', 'Second'],
        ['INTERNAL_NOTE', 'Private'],
      ]);
      expect((await patch(lead.leadId, { addComments: { body: ['Third'] } })).status).toBe(200);
      expect(await activities(lead.leadId)).toHaveLength(5);
    });

    it.each([
      ['an empty batch', { addComments: { body: [] } }, 'addComments.body'],
      ['a batch without body', { addComments: { clientRequestId: 'x' } }, 'addComments.body'],
      ['an entry over 500', { addInternalNotes: { body: ['x'.repeat(501)] } }, 'addInternalNotes.body[0]'],
      ['an empty entry', { addComments: { body: [''] } }, 'addComments.body[0]'],
      ['21 entries', { addComments: { body: Array.from({ length: 21 }, () => 'x') } }, 'addComments.body'],
      [
        'a clientRequestId over 128',
        { addComments: { body: ['x'], clientRequestId: 'x'.repeat(129) } },
        'addComments.clientRequestId',
      ],
    ])('4.2 %s is INVALID_FIELD_VALUE', async (_name, body, field) => {
      const lead = await createLead(ctx(), t);
      const r = await patch(lead.leadId, body);
      expect(failure(r.body)).toEqual({ code: 'INVALID_FIELD_VALUE', fields: [`${field}:INVALID_FIELD_VALUE`] });
    });
  });

  describe('what may be sent', () => {
    it.each([
      ['an empty body', {}, 'body'],
      ['externalId', { externalId: 'x' }, 'externalId'],
      ['status', { status: 'OPEN' }, 'status'],
      ['updatedAt', { updatedAt: '2020-01-01T00:00:00.000Z' }, 'updatedAt'],
      ['an unknown key', { colour: 'red' }, 'colour'],
      ['a wrongly typed value', { subject: 5 }, 'subject'],
      ['a body that is not an object', 'text', 'body'],
    ])('4.2 %s: INVALID_FIELD', async (_name, body, field) => {
      const lead = await createLead(ctx(), t);
      const r = await patch(lead.leadId, body);
      expect(r.status).toBe(400);
      expect(r.body.data.error.code).toBe('INVALID_FIELD');
      expect(r.body.data.error.errors[0].field).toBe(field);
    });

    it('4.2 a request that changes nothing keeps updatedAt and adds no entry; a change moves updatedAt', async () => {
      const lead = await createLead(ctx(), t, { subject: 'Same', tags: ['Hot', 'VIP'], budget: { amount: 5 } });
      await pause();
      const same = await patch(lead.leadId, {
        subject: 'Same',
        tags: ['vip', 'hot'],
        budget: { amount: 5, currency: 'INR' },
        stage: 'New',
        leadSource: null,
      });
      expect(same.status).toBe(200);
      expect(same.body.data).toEqual(lead);
      expect(await activities(lead.leadId)).toHaveLength(1);
      const changed = await patch(lead.leadId, { subject: 'Different' });
      expect(changed.body.data.updatedAt > lead.updatedAt).toBe(true);
      expect(changed.body.data.createdAt).toBe(lead.createdAt);
    });

    it("4.2 unknown, removed and another business's leads: the same 404 LEAD_NOT_FOUND (after body checks)", async () => {
      const other = await seedLeadTenant(ctx());
      const foreign = await createLead(ctx(), other);
      const removed = await createLead(ctx(), t);
      await call(ctx().app, 'DELETE', `${t.admin}/${removed.leadId}`, { token: t.operator });
      for (const leadId of ['ld_nothing', foreign.leadId, removed.leadId, '%00', 'x'.repeat(300)]) {
        const r = await patch(leadId, { subject: 'x' });
        expect(r.status, leadId).toBe(404);
        expect(r.body.data.error).toEqual({ code: 'LEAD_NOT_FOUND', message: 'Lead not found', status: 404 });
      }
      expect((await patch('ld_nothing', { subject: 5 })).status).toBe(400);
      expect(
        (await call(ctx().app, 'GET', `${other.leads}/${foreign.leadId}`, { token: other.token })).body.data.subject,
      ).toBeUndefined();
    });
  });
});
