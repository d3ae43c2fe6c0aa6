import { describe, expect, it } from 'vitest';
import { fieldChanges } from '../../src/leads/lead.history.js';
import type { StoredLead } from '../../src/storage/leads.records.js';

const lead: StoredLead = {
  leadId: 'ld_1',
  externalId: 'e1',
  removed: false,
  source: 'API',
  pipelineId: 'pl_1',
  stageId: 'st_1',
  leadSourceKey: null,
  assigneeId: null,
  followUpDate: null,
  data: {
    customer: {
      clientId: 'c1',
      name: 'Asha Traders',
      country: 'IN',
      phone: null,
      address: null,
      city: null,
      state: null,
      pincode: null,
    },
    contact: { contactId: 'ct_1', name: 'Asha', email: null, phone: null, country: 'IN', designation: null },
    subject: 'S',
    details: null,
    budget: { amount: 100, currency: 'INR' },
    reasonKeys: [],
    tagIds: ['tg_a', 'tg_b'],
    customFields: { lf_size: 5 },
  },
  version: 1,
  createdAt: 1,
  updatedAt: 1,
};

const edit = (patch: (l: StoredLead) => void): StoredLead => {
  const next = structuredClone(lead);
  patch(next);
  return next;
};

describe('the field history rule (docs/leads.md "Field history")', () => {
  it.each<[string, (l: StoredLead) => void, { field: string; from: unknown; to: unknown }[]]>([
    ['nothing changed', () => {}, []],
    ['bookkeeping only (version, updatedAt)', (l) => Object.assign(l, { version: 2, updatedAt: 9 }), []],
    ['stage and reasons: the STAGE_CHANGE entry says them', (l) => Object.assign(l, { stageId: 'st_2' }), []],
    ['the same tags in another order', (l) => void (l.data.tagIds = ['tg_b', 'tg_a']), []],
    ['the same budget, members in another order', (l) => void (l.data.budget = { currency: 'INR', amount: 100 }), []],
    ['subject', (l) => void (l.data.subject = 'T'), [{ field: 'subject', from: 'S', to: 'T' }]],
    ['budget cleared', (l) => void (l.data.budget = null), [{ field: 'budget', from: lead.data.budget, to: null }]],
    ['assignee set', (l) => void (l.assigneeId = 'mb_1'), [{ field: 'assignedTo', from: null, to: 'mb_1' }]],
    [
      'follow-up',
      (l) => void (l.followUpDate = '2030-01-01'),
      [{ field: 'followUpDate', from: null, to: '2030-01-01' }],
    ],
    ['lead source', (l) => void (l.leadSourceKey = 'WEB'), [{ field: 'leadSource', from: null, to: 'WEB' }]],
    [
      'a tag added',
      (l) => void l.data.tagIds.push('tg_c'),
      [{ field: 'tags', from: ['tg_a', 'tg_b'], to: ['tg_a', 'tg_b', 'tg_c'] }],
    ],
    [
      'custom fields: changed, added, cleared, one entry each by id',
      (l) => void (l.data.customFields = { lf_tier: 'Gold' }),
      [
        { field: 'customFields.lf_size', from: 5, to: null },
        { field: 'customFields.lf_tier', from: null, to: 'Gold' },
      ],
    ],
    [
      'customer and contact members, in answer order',
      (l) => {
        l.data.contact.email = 'a@example.com';
        l.data.customer.city = 'Pune';
        l.data.customer.clientId = 'c2';
      },
      [
        { field: 'customer.clientId', from: 'c1', to: 'c2' },
        { field: 'customer.city', from: null, to: 'Pune' },
        { field: 'contact.email', from: null, to: 'a@example.com' },
      ],
    ],
  ])('%s', (_name, patch, expected) => {
    expect(fieldChanges(lead, edit(patch))).toEqual(expected);
  });
});
