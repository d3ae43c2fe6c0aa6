// @module-tag dates
import { beforeAll, describe, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { createLead, seedLeadTenant, type LeadTenant } from '../helpers/leads.js';

/**
 * Field history (docs/leads.md "Field history"): every edit of a lead's field is a FIELD_CHANGE entry
 * {field, from, to}, read with `include=fieldChanges`; the default answer is the spec's (4.5).
 */
describeEachStore('Field history of a lead', (ctx) => {
  let t: LeadTenant;
  beforeAll(async () => {
    t = await seedLeadTenant(ctx());
  });
  const patch = (leadId: string, body: unknown) =>
    call(ctx().app, 'PATCH', `${t.leads}/${leadId}`, { token: t.token, body });
  const read = async (leadId: string, query = '', token = t.token, base = t.leads) =>
    call(ctx().app, 'GET', `${base}/${leadId}/activities${query}`, { token });
  const changes = async (leadId: string) =>
    (await read(leadId, '?include=fieldChanges')).body.data[0].items
      .filter((e: any) => e.type === 'FIELD_CHANGE')
      .map(({ field, from, to }: any) => ({ field, from, to }));

  describe.each([
    ['subject', { subject: 'A' }, { subject: 'B' }, [{ field: 'subject', from: 'A', to: 'B' }]],
    ['details cleared', { details: 'D' }, { details: null }, [{ field: 'details', from: 'D', to: null }]],
    [
      'budget',
      { budget: { amount: 100, currency: 'USD' } },
      { budget: { amount: 200 } },
      [{ field: 'budget', from: { amount: 100, currency: 'USD' }, to: { amount: 200, currency: 'USD' } }],
    ],
    [
      'assignee by e-mail',
      {},
      { assignedTo: 'asha@example.com' },
      [{ field: 'assignedTo', from: null, to: 'asha@example.com' }],
    ],
    ['tags by name', { tags: ['Hot'] }, { tagsAdd: ['VIP'] }, [{ field: 'tags', from: ['Hot'], to: ['Hot', 'VIP'] }]],
    [
      'follow-up as the lead answers it',
      {},
      { followUpDate: '2999-12-31' },
      [{ field: 'followUpDate', from: null, to: '2999-12-31T00:00:00.000Z' }],
    ],
    ['lead source', {}, { leadSource: 'Referral' }, [{ field: 'leadSource', from: null, to: 'REFERRAL' }]],
    [
      'custom fields by name, one entry each',
      { customFields: { 'Team size': 5, Tier: 'Gold' } },
      { customFields: { 'Team size': 7, Tier: null } },
      [
        { field: 'customFields.Team size', from: 5, to: 7 },
        { field: 'customFields.Tier', from: 'Gold', to: null },
      ],
    ],
    [
      'customer and contact members',
      {},
      { customer: { name: 'New Traders', city: 'Pune' }, contact: { email: 'new@example.com' } },
      [
        { field: 'customer.name', from: 'Asha Traders', to: 'New Traders' },
        { field: 'customer.city', from: null, to: 'Pune' },
        { field: 'contact.email', from: null, to: 'new@example.com' },
      ],
    ],
  ])('%s', (_name, created, body, expected) => {
    it('one FIELD_CHANGE entry per changed field, with the author and the edit time', async () => {
      const lead = await createLead(ctx(), t, created);
      const edited = await patch(lead.leadId, body);
      expect(edited.status).toBe(200);
      expect(await changes(lead.leadId)).toEqual(expected);
      const entry = (await read(lead.leadId, '?include=fieldChanges')).body.data[0].items.at(-1);
      expect(entry).toMatchObject({ type: 'FIELD_CHANGE', author: 'API', createdAt: edited.body.data.updatedAt });
    });
  });

  it('a relinked customer and contact: the reference and the members it refills', async () => {
    const other = await createLead(ctx(), t, { customer: { name: 'Other Co', phone: '+919876543210' } });
    const lead = await createLead(ctx(), t);
    const r = await patch(lead.leadId, {
      customer: { clientId: other.customer.clientId },
      contact: { contactId: other.contact.contactId },
    });
    expect(r.status).toBe(200);
    const fields = (await changes(lead.leadId)).map((c: any) => c.field);
    expect(fields).toEqual(['customer.clientId', 'customer.name', 'customer.phone', 'contact.contactId']);
    expect((await changes(lead.leadId))[0]).toEqual({
      field: 'customer.clientId',
      from: lead.customer.clientId,
      to: other.customer.clientId,
    });
  });

  it('a move is its STAGE_CHANGE entry alone; a move with a field change adds that field only', async () => {
    const lead = await createLead(ctx(), t);
    await patch(lead.leadId, { stage: 'Qualified' });
    await patch(lead.leadId, { stage: 'New', subject: 'Moved back' });
    const types = (await read(lead.leadId, '?include=fieldChanges')).body.data[0].items.map((e: any) => e.type);
    expect(types).toEqual(['CREATED', 'STAGE_CHANGE', 'STAGE_CHANGE', 'FIELD_CHANGE']);
    expect(await changes(lead.leadId)).toEqual([{ field: 'subject', from: null, to: 'Moved back' }]);
  });

  it('an edit that changes nothing adds no entry; an identical retry adds nothing', async () => {
    const lead = await createLead(ctx(), t, { subject: 'Same', tags: ['Hot', 'VIP'], budget: { amount: 5 } });
    const same = { subject: 'Same', tags: ['vip', 'hot'], budget: { amount: 5, currency: 'INR' }, leadSource: null };
    await patch(lead.leadId, same);
    expect(await changes(lead.leadId)).toEqual([]);
    const body = { subject: 'Once', customFields: { Tier: 'Silver' } };
    expect((await patch(lead.leadId, body)).status).toBe(200);
    expect((await patch(lead.leadId, body)).status).toBe(200);
    expect(await changes(lead.leadId)).toEqual([
      { field: 'subject', from: 'Same', to: 'Once' },
      { field: 'customFields.Tier', from: null, to: 'Silver' },
    ]);
  });

  it('4.5 the default answer is the spec: no FIELD_CHANGE entry, full pages, the same members', async () => {
    const lead = await createLead(ctx(), t);
    for (let i = 0; i < 3; i++) await patch(lead.leadId, { subject: `S${i}` });
    await patch(lead.leadId, { stage: 'Qualified', addComments: { body: ['hello'] } });
    const plain = (await read(lead.leadId)).body.data[0];
    expect(plain.items.map((e: any) => e.type)).toEqual(['CREATED', 'STAGE_CHANGE', 'COMMENT']);
    for (const entry of plain.items) expect(Object.keys(entry)).not.toContain('field');
    expect(plain.nextCursor).toBeNull();
    const all = (await read(lead.leadId, '?include=fieldChanges')).body.data[0].items;
    expect(all).toHaveLength(6);
    // A cursor of either answer continues either one.
    const after = (await read(lead.leadId, `?after=${all[1].activityId}`)).body.data[0].items;
    expect(after.map((e: any) => e.type)).toEqual(['STAGE_CHANGE', 'COMMENT']);
  });

  it('include takes fieldChanges alone, once; other parameters stay refused', async () => {
    const lead = await createLead(ctx(), t);
    const code = async (query: string) => (await read(lead.leadId, query)).body.data.error?.code;
    expect(await code('?include=other')).toBe('INVALID_QUERY_VALUE');
    expect(await code('?include=fieldChanges&include=fieldChanges')).toBe('INVALID_QUERY_VALUE');
    expect(await code('?colour=red')).toBe('INVALID_QUERY_FIELD');
    expect((await read(lead.leadId, '?include=fieldChanges')).status).toBe(200);
  });

  it("operator edits: entries authored by the operator; the lead.edit audit line's detail.changes says what changed", async () => {
    const lead = await createLead(ctx(), t, { budget: { amount: 100 } });
    const r = await call(ctx().app, 'PATCH', `${t.admin}/${lead.leadId}`, {
      token: t.operator,
      body: { budget: { amount: 200 }, stage: 'Qualified', tags: ['Hot'] },
    });
    expect(r.status).toBe(200);
    const entries = (await read(lead.leadId, '?include=fieldChanges', t.operator, t.admin)).body.data[0].items;
    expect(entries.at(-1)).toMatchObject({ type: 'FIELD_CHANGE', field: 'tags' });
    expect(entries.at(-1).author).not.toBe('API');
    const page = await call(ctx().app, 'GET', '/admin/v1/audit?pageSize=100', { token: t.operator });
    const line = page.body.data.entries.find(
      (e: any) => e.business === t.urlKey && e.action === 'lead.edit' && e.detail.leadId === lead.leadId,
    );
    expect(line.detail.changes).toEqual([
      { field: 'stage', from: 'New', to: 'Qualified' },
      { field: 'budget', from: { amount: 100, currency: 'INR' }, to: { amount: 200, currency: 'INR' } },
      { field: 'tags', from: [], to: ['Hot'] },
    ]);
  });
});
