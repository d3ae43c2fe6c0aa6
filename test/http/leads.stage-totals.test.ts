import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { call, describeEachStore } from '../helpers/app.js';
import { minimalLead, seedLeadTenant, type LeadTenant } from '../helpers/leads.js';
import { sumExistingBudgets } from '../../src/storage/migrations/020-lead-budget-sums.js';

/**
 * Issue 39: a board column's count and value are the whole stage's, computed by the server
 * (GET /admin/v1/businesses/:urlKey/lead-stage-totals). Each figure is checked against a model of the
 * leads this file wrote, summed by an independent decimal reference (strings → BigInt ten-thousandths),
 * and each count against the list's own total. Amounts are chosen so that a float sum would be wrong
 * (0.1 + 0.2) and a sum in ten-thousandths passes 2^53 (three budgets of 10^13).
 */
interface Modelled {
  leadId: string;
  stage: string;
  amount?: string;
  currency?: string;
  assignee?: string;
  tags: string[];
  subject: string;
}

/** The reference: a decimal string's ten-thousandths, written without the code under test. */
function tenThousandths(text: string): bigint {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole!) * 10000n + BigInt(`${fraction}0000`.slice(0, 4));
}
function decimal(units: bigint): string {
  const fraction = (units % 10000n).toString().padStart(4, '0').replace(/0+$/, '');
  return `${units / 10000n}${fraction ? `.${fraction}` : ''}`;
}

describeEachStore('lead stage totals (issue 39)', (ctx) => {
  let t: LeadTenant;
  const model: Modelled[] = [];
  const totalsPath = () => `/admin/v1/businesses/${t.urlKey}/lead-stage-totals`;
  const totals = async (query: string) => {
    const answer = await call(ctx().app, 'GET', `${totalsPath()}?pipeline=Sales${query ? `&${query}` : ''}`, {
      token: t.operator,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data[0] as {
      pipeline: string;
      stages: { name: string; count: number; budgets: { currency: string; amount: string }[] }[];
    };
  };
  /** What the model says a stage holds for the leads `keep` picks. */
  const expected = (stage: string, keep: (lead: Modelled) => boolean) => {
    const leads = model.filter((lead) => lead.stage === stage && keep(lead));
    const sums = new Map<string, bigint>();
    for (const lead of leads)
      if (lead.amount) sums.set(lead.currency!, (sums.get(lead.currency!) ?? 0n) + tenThousandths(lead.amount));
    return {
      count: leads.length,
      budgets: [...sums]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([currency, units]) => ({ currency, amount: decimal(units) })),
    };
  };
  const FILTERS: [string, (lead: Modelled) => boolean][] = [
    ['', () => true],
    ['assignedTo=asha@example.com', (l) => l.assignee === 'asha@example.com'],
    ['assignedTo=UNASSIGNED', (l) => l.assignee === undefined],
    ['tags=Hot', (l) => l.tags.includes('Hot')],
    ['q=turbine', (l) => l.subject.includes('turbine')],
    ['createdAtFrom=2000-01-01', () => true],
    ['status=NEW,CLOSED', (l) => l.stage === 'New' || l.stage === 'Won'],
  ];
  const expectModel = async () => {
    for (const [query, keep] of FILTERS) {
      const answer = await totals(query);
      for (const stage of answer.stages) {
        const want = ['New', 'Qualified', 'Old step', 'Won', 'Lost'].includes(stage.name)
          ? expected(stage.name, keep)
          : { count: 0, budgets: [] };
        expect({ count: stage.count, budgets: stage.budgets }, `${query} ${stage.name}`).toEqual(want);
      }
      // The count is the list's total for the same filter and stage.
      const list = await call(ctx().app, 'GET', `${t.admin}?pipeline=Sales&stage=New${query ? `&${query}` : ''}`, {
        token: t.operator,
      });
      expect(list.body.data[0].total, query).toBe(answer.stages.find((s) => s.name === 'New')!.count);
    }
  };
  const create = async (body: Record<string, unknown>, extra: Partial<Modelled> = {}) => {
    const answer = await call(ctx().app, 'POST', t.leads, { token: t.token, body: minimalLead(body) });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const budget = body.budget as { amount: number; currency?: string } | undefined;
    model.push({
      leadId: answer.body.data.leadId,
      stage: String(body.stage ?? 'New'),
      tags: (body.tags as string[]) ?? [],
      subject: String(body.subject ?? ''),
      ...(budget && { amount: String(budget.amount), currency: budget.currency ?? 'INR' }),
      ...(body.assignedTo ? { assignee: String(body.assignedTo) } : {}),
      ...extra,
    });
  };

  beforeAll(async () => {
    t = await seedLeadTenant(ctx());
    await create({ budget: { amount: 0.1 }, subject: 'Wind turbine parts', tags: ['Hot'] });
    await create({ budget: { amount: 0.2 }, assignedTo: 'asha@example.com' });
    for (let i = 0; i < 3; i += 1)
      await create({
        budget: { amount: 10 ** 13 },
        tags: i === 0 ? ['Hot'] : [],
        subject: i === 1 ? 'turbine blades' : 'Blades',
      });
    await create({ budget: { amount: 1234.5678, currency: 'usd' }, assignedTo: 'asha@example.com' });
    await create({ subject: 'No budget turbine' });
    await create({ stage: 'Won', stageReasons: ['Price'], budget: { amount: 99.99, currency: 'AED' } });
    model[6]!.currency = undefined;
    model[5]!.currency = 'USD';
  });

  it('counts every lead of each stage and sums its budgets exactly per currency', async () => {
    const all = await totals('');
    expect(all.pipeline).toBe('Sales');
    expect(all.stages.map((s) => s.name)).toEqual(['New', 'Qualified', 'Old step', 'Won', 'Lost']);
    expect(all.stages[0]).toMatchObject({
      count: 7,
      budgets: [
        { currency: 'INR', amount: '30000000000000.3' },
        { currency: 'USD', amount: '1234.5678' },
      ],
    });
    await expectModel();
  });

  it('follows moves, budget edits and clears, and removals', async () => {
    const patch = async (lead: Modelled, body: Record<string, unknown>) => {
      const answer = await call(ctx().app, 'PATCH', `${t.leads}/${lead.leadId}`, { token: t.token, body });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    };
    await patch(model[2]!, { stage: 'Won', stageReasons: ['Price'] });
    model[2]!.stage = 'Won';
    await patch(model[1]!, { budget: { amount: 0.25, currency: 'USD' } });
    Object.assign(model[1]!, { amount: '0.25', currency: 'USD' });
    await patch(model[0]!, { budget: null });
    delete model[0]!.amount;
    await patch(model[3]!, { assignedTo: 'asha@example.com', tagsAdd: ['Hot'] });
    Object.assign(model[3]!, { assignee: 'asha@example.com', tags: ['Hot'] });
    expect((await call(ctx().app, 'DELETE', `${t.admin}/${model[4]!.leadId}`, { token: t.operator })).status).toBe(200);
    model.splice(4, 1);
    // Concurrent moves in opposite directions.
    await Promise.all([patch(model[2]!, { stage: 'New' }), patch(model[6]!, { stage: 'New' })]);
    model[2]!.stage = 'New';
    model[6]!.stage = 'New';
    await expectModel();
  });

  it("what the triggers keep equals the migration's sum of the leads as they are", async () => {
    const db = ctx().store.leads.db;
    const read = async () =>
      (
        await sql<
          Record<string, unknown>
        >`select pipeline_id, stage_id, lead_source_key, assignee_id, no_follow_up, currency,
      sum(live) as live, sum(units_hi) as hi, sum(units_lo) as lo from lead_budget_sums group by 1, 2, 3, 4, 5, 6 having sum(live) <> 0 order by 1, 2, 3, 4, 5, 6`.execute(
          db,
        )
      ).rows.map((row) => Object.values(row).map(String).join('|'));
    const kept = await read();
    await sql`delete from lead_budget_sums`.execute(db);
    await sumExistingBudgets(db as never, ctx().store.kind);
    expect(await read()).toEqual(kept);
    expect(kept.length).toBeGreaterThan(0);
  });

  describe('refusals', () => {
    const status = async (query: string, token = t.operator, urlKey = t.urlKey) => {
      const answer = await call(ctx().app, 'GET', `/admin/v1/businesses/${urlKey}/lead-stage-totals${query}`, {
        token,
      });
      return [answer.status, answer.body?.data?.error?.code];
    };
    it.each([
      ['?pipeline=Sales,Partners', 'INVALID_PIPELINE'],
      ['?pipeline=Nope', 'INVALID_PIPELINE'],
      ['?pipeline=Sales&$limit=5', 'INVALID_QUERY_FIELD'],
      ['?pipeline=Sales&stage=New', 'INVALID_QUERY_FIELD'],
      ['?pipeline=Sales&$sort[createdAt]=1', 'INVALID_QUERY_FIELD'],
      ['?pipeline=Sales&after=x', 'INVALID_QUERY_FIELD'],
      ['?pipeline=Sales&tags=Nope', 'INVALID_TAG'],
      ['?pipeline=Sales&status=WHATEVER', 'INVALID_QUERY_VALUE'],
      ['?pipeline=Sales&business=x', 'INVALID_QUERY_FIELD'],
    ])('%s → 400 %s', async (query, code) => {
      expect(await status(query)).toEqual([400, code]);
    });
    it('without pipeline: the primary pipeline; a business without a live pipeline answers no stage', async () => {
      const answer = await call(ctx().app, 'GET', totalsPath(), { token: t.operator });
      expect(answer.body.data[0].pipeline).toBe('Sales');
      expect(answer.body.data[0].stages[0].count).toBeGreaterThan(0);
      const empty = await seedLeadTenant(ctx());
      await call(ctx().app, 'PUT', `/admin/v1/businesses/${empty.urlKey}/pipelines`, {
        token: empty.operator,
        body: { pipelines: [], stageReasons: [] },
      });
      const none = await call(ctx().app, 'GET', `/admin/v1/businesses/${empty.urlKey}/lead-stage-totals`, {
        token: empty.operator,
      });
      expect(none.body.data).toEqual([{ pipeline: null, stages: [] }]);
    });
    it('an unknown business is 404, an app token 401', async () => {
      expect(await status('?pipeline=Sales', t.operator, 'no-such-business-here')).toEqual([404, 'BUSINESS_NOT_FOUND']);
      expect((await status('?pipeline=Sales', t.token))[0]).toBe(401);
    });
  });
});
