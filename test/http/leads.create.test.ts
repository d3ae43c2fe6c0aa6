// @module-tag dates
import { beforeAll, describe, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { createLead, failure, minimalLead, newExternalId, seedLeadTenant, type LeadTenant } from '../helpers/leads.js';

describeEachStore('4.1 POST leads', (ctx) => {
  let t: LeadTenant;
  beforeAll(async () => {
    t = await seedLeadTenant(ctx());
  });
  const post = (body: unknown, token = t.token) => call(ctx().app, 'POST', t.leads, { token, body });

  it('4.1 creates a lead with a new client and contact, every field in the answer (2.1)', async () => {
    const externalId = newExternalId();
    const r = await post({
      externalId: `  ${externalId}  `,
      customer: {
        name: '  Asha Traders ',
        country: 'ae',
        phone: '(98) 200-0000',
        address: '1 Main St',
        city: 'Dubai',
        pincode: '0000',
      },
      contact: { name: 'Asha Rao', email: 'Asha@Example.COM', phone: '+91 98200 00000', designation: 'Buyer' },
      pipeline: ' Sales ',
      stage: 'Won',
      stageReasons: ['Price'],
      subject: 'Bulk order',
      details: 'Wants 500 units',
      budget: { amount: 1234.5678 },
      leadSource: 'website',
      assignedTo: 'ASHA@example.com',
      tags: ['hot', 'VIP', 'Hot'],
      customFields: { 'team size': 12, Tier: 'Gold' },
      followUpDate: '2999-01-31',
    });
    expect(r.status).toBe(201);
    const lead = r.body.data;
    expect(lead.leadId).toMatch(/^[A-Za-z0-9_]{1,64}$/);
    expect(lead).toEqual({
      leadId: lead.leadId,
      externalId,
      customer: {
        clientId: `lead-${lead.leadId}`,
        name: 'Asha Traders',
        country: 'AE',
        phone: '+982000000',
        address: '1 Main St',
        city: 'Dubai',
        pincode: '0000',
      },
      contact: {
        contactId: lead.contact.contactId,
        name: 'Asha Rao',
        email: 'asha@example.com',
        phone: '+919820000000',
        country: 'IN',
        designation: 'Buyer',
      },
      subject: 'Bulk order',
      details: 'Wants 500 units',
      budget: { amount: 1234.5678, currency: 'INR' },
      leadSource: 'WEBSITE',
      followUpDate: '2999-01-31T00:00:00.000Z',
      pipeline: 'Sales',
      stage: 'Won',
      status: 'CLOSED',
      stageReasons: ['Price'],
      assignedTo: 'asha@example.com',
      tags: ['Hot', 'VIP'],
      customFields: { 'Team size': 12, Tier: 'Gold' },
      source: 'API',
      createdAt: lead.createdAt,
      updatedAt: lead.createdAt,
    });
    const again = await call(ctx().app, 'GET', `${t.leads}/${lead.leadId}`, { token: t.token });
    expect(again.body.data).toEqual(lead);
  });

  it('2.2 the new client is a client of the interface in every respect (GET clients reads it)', async () => {
    const lead = await createLead(ctx(), t, { customer: { name: 'New Co', phone: '98200 11111' } });
    const client = await call(ctx().app, 'GET', `/api/v1/businesses/${t.urlKey}/clients/${lead.customer.clientId}`, {
      token: t.token,
    });
    expect(client.status).toBe(200);
    expect(client.body.data).toMatchObject({
      clientId: lead.customer.clientId,
      name: 'New Co',
      phone: '+9820011111',
      country: 'IN',
      source: 'API',
    });
  });

  it('2.1 minimal lead: unset fields omitted or null, defaults filled; a contact without a phone answers phone "" (issue 34)', async () => {
    const lead = await createLead(ctx(), t);
    expect(Object.keys(lead).sort()).toEqual(
      [
        'assignedTo',
        'contact',
        'createdAt',
        'customer',
        'externalId',
        'followUpDate',
        'leadId',
        'leadSource',
        'pipeline',
        'source',
        'stage',
        'stageReasons',
        'status',
        'tags',
        'updatedAt',
      ].sort(),
    );
    expect(lead).toMatchObject({
      leadSource: null,
      followUpDate: null,
      assignedTo: null,
      tags: [],
      stageReasons: [],
      status: 'NEW',
    });
    expect(lead.customer).toEqual({ clientId: `lead-${lead.leadId}`, name: 'Asha Traders', country: 'IN' });
    expect(lead.contact).toEqual({ contactId: lead.contact.contactId, name: 'Asha Rao', phone: '', country: 'IN' });
  });

  it('2.2 an existing client by clientId: its name, country and phone fill the snapshot, values sent win', async () => {
    const made = await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, {
      token: t.token,
      body: { clientId: 'c-1', name: 'Client One', country: 'AE', phone: '+97150000000' },
    });
    expect(made.status).toBe(201);
    const lead = await createLead(ctx(), t, { customer: { clientId: 'c-1' } });
    expect(lead.customer).toEqual({ clientId: 'c-1', name: 'Client One', country: 'AE', phone: '+97150000000' });
    const other = await createLead(ctx(), t, { customer: { clientId: 'c-1', name: 'Branch office' } });
    expect(other.customer).toEqual({ clientId: 'c-1', name: 'Branch office', country: 'AE', phone: '+97150000000' });
  });

  it('2.2 an unknown clientId with a name creates a new client; without a name it is 400 CLIENT_NOT_FOUND', async () => {
    const lead = await createLead(ctx(), t, { customer: { clientId: 'nobody', name: 'Fallback Co' } });
    expect(lead.customer.clientId).toBe(`lead-${lead.leadId}`);
    const r = await post(minimalLead({ customer: { clientId: 'nobody' }, contact: { contactId: 'nobody' } }));
    expect(r.status).toBe(400);
    expect(failure(r.body)).toEqual({
      code: 'CLIENT_NOT_FOUND',
      fields: ['customer.clientId:CLIENT_NOT_FOUND', 'contact.contactId:CONTACT_NOT_FOUND'],
    });
  });

  it('2.3 an existing contact by contactId fills the contact snapshot', async () => {
    const first = await createLead(ctx(), t, { contact: { name: 'Meera', email: 'meera@example.com' } });
    const second = await createLead(ctx(), t, { contact: { contactId: first.contact.contactId, designation: 'CFO' } });
    expect(second.contact).toEqual({
      contactId: first.contact.contactId,
      name: 'Meera',
      email: 'meera@example.com',
      phone: '',
      country: 'IN',
      designation: 'CFO',
    });
  });

  it('an archived client does not resolve (a name falls back to a new client)', async () => {
    await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, {
      token: t.token,
      body: { clientId: 'c-archived', name: 'Gone' },
    });
    await call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/clients/c-archived/archive`, { token: t.operator });
    const r = await post(minimalLead({ customer: { clientId: 'c-archived' } }));
    expect(failure(r.body).code).toBe('CLIENT_NOT_FOUND');
  });

  describe('section 3: names', () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['archived pipeline', { pipeline: 'Retired', stage: 'Inside archived' }, 'INVALID_PIPELINE', 'pipeline'],
      ['unknown pipeline', { pipeline: 'Nope' }, 'INVALID_PIPELINE', 'pipeline'],
      ['pipeline names are case-sensitive', { pipeline: 'sales' }, 'INVALID_PIPELINE', 'pipeline'],
      ['a stage of a same-named later pipeline is never chosen', { stage: 'Second' }, 'INVALID_STAGE', 'stage'],
      ['a stage of another pipeline', { stage: 'Intro' }, 'INVALID_STAGE', 'stage'],
      ['an archived stage', { stage: 'Old step' }, 'INVALID_STAGE', 'stage'],
      [
        'a reason the stage does not list',
        { stage: 'Qualified', stageReasons: ['Price'] },
        'INVALID_STAGE_REASON',
        'stageReasons[0]',
      ],
      ['an archived reason', { stage: 'Lost', stageReasons: ['Went away'] }, 'INVALID_STAGE_REASON', 'stageReasons[0]'],
      [
        'a reason key instead of its label',
        { stage: 'Won', stageReasons: ['price'] },
        'INVALID_STAGE_REASON',
        'stageReasons[0]',
      ],
      ['an unknown lead source', { leadSource: 'TV' }, 'INVALID_LEAD_SOURCE', 'leadSource'],
      ['an archived tag', { tags: ['Hot', 'Old', 'nope'] }, 'INVALID_TAG', 'tags'],
      ['an archived member', { assignedTo: 'ravi@example.com' }, 'INVALID_ASSIGNEE', 'assignedTo'],
      ['an unknown member', { assignedTo: 'nobody@example.com' }, 'INVALID_ASSIGNEE', 'assignedTo'],
      ['an archived custom field', { customFields: { Legacy: 'x' } }, 'INVALID_CUSTOM_FIELD', 'customFields'],
      [
        'a custom field value of the wrong type',
        { customFields: { Tier: 'Bronze' } },
        'INVALID_CUSTOM_FIELD_VALUE',
        'customFields.Tier',
      ],
    ];
    it.each(cases)('%s', async (_name, overrides, code, field) => {
      const r = await post(minimalLead(overrides));
      expect(r.status).toBe(400);
      expect(r.body.data.error.code).toBe(code);
      expect(r.body.data.error.errors[0].field).toBe(field);
    });

    it('3.5 every failure in one 400, the first in body order leading', async () => {
      const r = await post({
        externalId: newExternalId(),
        leadSource: 'TV',
        customer: { name: 'X' },
        contact: { name: 'Y' },
        pipeline: 'Sales',
        stage: 'Nope',
        tags: ['nope'],
        assignedTo: 'no@example.com',
      });
      expect(failure(r.body)).toEqual({
        code: 'INVALID_LEAD_SOURCE',
        fields: [
          'leadSource:INVALID_LEAD_SOURCE',
          'stage:INVALID_STAGE',
          'tags:INVALID_TAG',
          'assignedTo:INVALID_ASSIGNEE',
        ],
      });
    });
  });

  describe('4.1 body rules', () => {
    const cases: [string, unknown, string, string][] = [
      ['externalId missing', { ...minimalLead(), externalId: undefined }, 'EXTERNAL_ID_REQUIRED', 'externalId'],
      ['externalId empty after trimming', minimalLead({ externalId: '   ' }), 'EXTERNAL_ID_REQUIRED', 'externalId'],
      ['externalId too long', minimalLead({ externalId: 'x'.repeat(129) }), 'EXTERNAL_ID_REQUIRED', 'externalId'],
      ['externalId of the wrong type', minimalLead({ externalId: 12 }), 'INVALID_FIELD', 'externalId'],
      ['customer missing', { ...minimalLead(), customer: undefined }, 'INVALID_CUSTOMER', 'customer'],
      ['customer not an object', minimalLead({ customer: 'Asha' }), 'INVALID_CUSTOMER', 'customer'],
      ['customer null (not sent)', minimalLead({ customer: null }), 'INVALID_CUSTOMER', 'customer'],
      ['externalId null (not sent)', minimalLead({ externalId: null }), 'EXTERNAL_ID_REQUIRED', 'externalId'],
      [
        'customer without clientId or name',
        minimalLead({ customer: { phone: '+911234' } }),
        'INVALID_CUSTOMER',
        'customer',
      ],
      ['contact without contactId or name', minimalLead({ contact: {} }), 'INVALID_CONTACT', 'contact'],
      [
        'unknown key inside customer',
        minimalLead({ customer: { name: 'A', gstin: 'x' } }),
        'INVALID_FIELD',
        'customer.gstin',
      ],
      ['unknown key inside budget', minimalLead({ budget: { amount: 1, tax: 2 } }), 'INVALID_FIELD', 'budget.tax'],
      ['pipeline missing', { ...minimalLead(), pipeline: undefined, stage: undefined }, 'INVALID_PIPELINE', 'pipeline'],
      ['stage missing', { ...minimalLead(), stage: undefined }, 'INVALID_STAGE', 'stage'],
      ['source is server-owned', minimalLead({ source: 'API' }), 'INVALID_FIELD', 'source'],
      ['leadId is answer-only', minimalLead({ leadId: 'x' }), 'INVALID_FIELD', 'leadId'],
      ['idempotent is answer-only', minimalLead({ idempotent: true }), 'INVALID_FIELD', 'idempotent'],
      ['an unknown key', minimalLead({ priority: 1 }), 'INVALID_FIELD', 'priority'],
      [
        'a customer name over 500',
        minimalLead({ customer: { name: 'x'.repeat(501) } }),
        'INVALID_FIELD_VALUE',
        'customer.name',
      ],
      ['a customer name of spaces', minimalLead({ customer: { name: '   ' } }), 'INVALID_FIELD_VALUE', 'customer.name'],
      [
        'a bad country',
        minimalLead({ customer: { name: 'A', country: 'XX' } }),
        'INVALID_FIELD_VALUE',
        'customer.country',
      ],
      [
        'a bad phone',
        minimalLead({ contact: { name: 'A', phone: 'call me' } }),
        'INVALID_FIELD_VALUE',
        'contact.phone',
      ],
      [
        'a bad e-mail',
        minimalLead({ contact: { name: 'A', email: 'not-mail' } }),
        'INVALID_FIELD_VALUE',
        'contact.email',
      ],
      ['subject over 2,500', minimalLead({ subject: 'x'.repeat(2501) }), 'INVALID_FIELD_VALUE', 'subject'],
      ['details over 10,000', minimalLead({ details: 'x'.repeat(10_001) }), 'INVALID_FIELD_VALUE', 'details'],
      ['budget amount 0', minimalLead({ budget: { amount: 0 } }), 'INVALID_FIELD_VALUE', 'budget.amount'],
      [
        'budget amount over 10^13',
        minimalLead({ budget: { amount: 1e13 + 1 } }),
        'INVALID_FIELD_VALUE',
        'budget.amount',
      ],
      ['budget with 5 decimals', minimalLead({ budget: { amount: 1.00001 } }), 'INVALID_FIELD_VALUE', 'budget.amount'],
      ['budget amount a string', minimalLead({ budget: { amount: '10' } }), 'INVALID_FIELD', 'budget.amount'],
      ['budget without amount', minimalLead({ budget: { currency: 'USD' } }), 'INVALID_FIELD_VALUE', 'budget.amount'],
      [
        'budget currency unknown',
        minimalLead({ budget: { amount: 1, currency: 'XYZ' } }),
        'INVALID_FIELD_VALUE',
        'budget.currency',
      ],
      ['tags over 50', minimalLead({ tags: Array.from({ length: 51 }, () => 'Hot') }), 'INVALID_FIELD_VALUE', 'tags'],
      ['tags not an array', minimalLead({ tags: 'Hot' }), 'INVALID_FIELD', 'tags'],
      [
        'stageReasons over 20',
        minimalLead({ stage: 'Won', stageReasons: Array.from({ length: 21 }, () => 'Price') }),
        'INVALID_FIELD_VALUE',
        'stageReasons',
      ],
      ['followUpDate in the past', minimalLead({ followUpDate: '2020-01-01' }), 'INVALID_FIELD_VALUE', 'followUpDate'],
      ['followUpDate not a date', minimalLead({ followUpDate: '2999-02-30' }), 'INVALID_FIELD_VALUE', 'followUpDate'],
      ['a body that is an array', [], 'INVALID_FIELD', 'body'],
    ];
    it.each(cases)('%s', async (_name, body, code, field) => {
      const r = await post(body);
      expect(r.status).toBe(400);
      expect(r.body.data.error.code).toBe(code);
      expect(r.body.data.error.errors[0].field).toBe(field);
      expect(r.body.data.error.errors).toHaveLength(1);
    });

    it('2.4 budget currency upper-cased; default the business currency; amount kept exactly', async () => {
      expect((await createLead(ctx(), t, { budget: { amount: 10_000_000_000_000, currency: 'usd' } })).budget).toEqual({
        amount: 1e13,
        currency: 'USD',
      });
      expect((await createLead(ctx(), t, { budget: { amount: 0.0001 } })).budget).toEqual({
        amount: 0.0001,
        currency: 'INR',
      });
    });

    it('4.2 followUpDate: an instant counts by its UTC date; today in the business time zone is accepted', async () => {
      expect((await createLead(ctx(), t, { followUpDate: '2999-05-01T23:30:00+05:30' })).followUpDate).toBe(
        '2999-05-01T00:00:00.000Z',
      );
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(Date.now());
      expect((await createLead(ctx(), t, { followUpDate: today })).followUpDate).toBe(`${today}T00:00:00.000Z`);
    });

    it('2.5 customFields on a business without custom fields: CUSTOM_FIELDS_NOT_ENABLED; an empty object is fine', async () => {
      const off = await seedLeadTenant(ctx(), { customFieldsEnabled: false });
      const r = await call(ctx().app, 'POST', off.leads, {
        token: off.token,
        body: minimalLead({ customFields: { Tier: 'Gold' } }),
      });
      expect(failure(r.body).code).toBe('CUSTOM_FIELDS_NOT_ENABLED');
      expect(
        (await call(ctx().app, 'POST', off.leads, { token: off.token, body: minimalLead({ customFields: {} }) }))
          .status,
      ).toBe(201);
    });

    it('a refused create stores neither client nor contact nor lead', async () => {
      const externalId = newExternalId();
      const r = await post(minimalLead({ externalId, customer: { name: 'Never Stored' }, tags: ['nope'] }));
      expect(r.status).toBe(400);
      const lookup = await call(ctx().app, 'GET', `${t.leads}?externalId=${externalId}`, { token: t.token });
      if (lookup.status === 200) expect(lookup.body.data[0].items).toEqual([]);
      const rows = await ctx().store.leads.findByExternalId(t.urlKey, externalId);
      expect(rows).toBeUndefined();
    });
  });
});
