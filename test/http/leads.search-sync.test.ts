import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { DAY, seedListTenant, seedSixLeads, T0, type ListTenant } from '../helpers/lead-list-fixture.js';
import { insertLeads, syncSettled } from '../helpers/lead-rows.js';

/** docs/decisions.md "Lead lists": free text on both stores (no search engine), and sync pages by updatedAt with a cursor. */
describeEachStore('GET /leads: free text and sync', (ctx) => {
  let t: ListTenant;
  let ids: Record<string, string>;
  beforeAll(async () => {
    t = await seedListTenant(ctx());
    ids = await seedSixLeads(ctx(), t);
  });
  const get = (query: string, urlKey = t.urlKey, token = t.token) =>
    call(ctx().app, 'GET', `/api/v1/businesses/${urlKey}/leads?${query}`, { token });
  const names = (items: { leadId: string }[]) =>
    items.map((item) => Object.keys(ids).find((k) => ids[k] === item.leadId) ?? item.leadId);
  const listed = async (query: string) => {
    const answer = await get(query);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return names(answer.body.data[0].items);
  };

  it.each([
    ['q=espresso', ['L1']],
    ['q=ESPRESSO machines', ['L1']],
    ['q=espr', ['L1']],
    ['q=cafe', ['L1', 'L2']],
    ['q=CAFÉ', ['L1', 'L2']],
    ['q=caf', ['L1', 'L2']],
    ['q=zeta', ['L1']],
    ['q=ravi', ['L1']],
    ['q=Omega', ['L2']],
    ['q=spresso', []],
    ['q=espresso website', []],
    ['subject=renovation', ['L1']],
    ['details=renovation', ['L2']],
    ['subject=website&details=cafe', ['L2']],
    ['q=removed', []],
    ['q=partner&pipeline=Partners', ['L3']],
    ['q=partner&pipeline=Sales', []],
  ])('%s: whole words or prefixes, ignoring case and accents', async (query, expected) => {
    expect(await listed(query)).toEqual(expected);
  });

  it('relevance first: a word in the subject outranks the same word in the details of a newer lead', async () => {
    // L2 is newer (first by default) and carries "renovation" in its details; L1 in its subject.
    expect(await listed('q=renovation')).toEqual(['L1', 'L2']);
    expect(await listed('q=renovation&$sort[createdAt]=-1')).toEqual(['L1', 'L2']);
  });

  it('relevance ties fall back to $sort, then createdAt descending', async () => {
    const own = await seedListTenant(ctx());
    const leads = await insertLeads(
      ctx().store,
      own.urlKey,
      [1, 2, 3].map((n) => ({
        pipelineId: own.pipelines.Sales!.id,
        stageId: own.pipelines.Sales!.stages.New!,
        subject: 'Zymurgy kit',
        budget: { amount: 10 * (4 - n), currency: 'INR' },
        createdAt: T0 + n * 1000,
      })),
    );
    const [one, two, three] = leads.map((l) => l.leadId);
    const order = async (query: string) =>
      ((await get(query, own.urlKey, own.token)).body.data[0].items as { leadId: string }[]).map((i) => i.leadId);
    expect(await order('q=zymurgy')).toEqual([three, two, one]);
    expect(await order('q=zymurgy&$sort[budget.amount]=1')).toEqual([three, two, one]);
    expect(await order('q=zymurgy&$sort[budget.amount]=-1')).toEqual([one, two, three]);
    const page = await get('q=zymurgy&$limit=1&$skip=1', own.urlKey, own.token);
    expect(page.body.data[0]).toMatchObject({ total: 3, items: [{ leadId: two }] });
  });

  it.each([
    ['q='],
    ['q=!!!'],
    ['subject=%20'],
    [`q=${Array.from({ length: 11 }, (_, i) => `w${i}`).join('+')}`],
    [`q=${'x'.repeat(501)}`],
  ])('%s is INVALID_QUERY_VALUE', async (query) => {
    const answer = await get(query);
    expect(answer.status).toBe(400);
    expect(answer.body.data.error.code).toBe('INVALID_QUERY_VALUE');
  });

  it('sync: updatedAt then leadId ascending, nextCursor to the end, total null, every lead once', async () => {
    const first = await get('updatedAtFrom=2026-01-01&$limit=2');
    expect(first.status).toBe(200);
    const page = first.body.data[0];
    expect(page.total).toBeNull();
    expect(typeof page.nextCursor).toBe('string');
    const seen = names(page.items);
    let cursor: string | null = page.nextCursor;
    while (cursor) {
      const next = await get(`after=${encodeURIComponent(cursor)}&$limit=2`);
      expect(next.status).toBe(200);
      seen.push(...names(next.body.data[0].items));
      cursor = next.body.data[0].nextCursor;
    }
    expect(seen.slice(0, 5)).toEqual(['L1', 'L6', 'L2', 'L3', 'L4']);
    expect(seen.filter((n) => n.startsWith('L'))).toHaveLength(5);
  });

  it('sync: updatedAtFrom bounds the start; filters still apply', async () => {
    expect(await listed(`updatedAtFrom=${new Date(T0 + DAY).toISOString()}&pipeline=Sales,Partners`)).toEqual([
      'L2',
      'L3',
    ]);
  });

  it('sync: a lead edited while a sync runs comes again on a later page', async () => {
    const first = await get('updatedAtFrom=2026-01-01&$limit=2&pipeline=Sales,Partners,Legacy');
    expect(names(first.body.data[0].items)).toEqual(['L1', 'L6']);
    await ctx()
      .store.leads.db.updateTable('leads')
      .set({ updated_at: Date.now(), subject: 'Café renovation, phase 2' })
      .where('lead_id', '=', ids.L1!)
      .execute();
    await syncSettled(ctx().store, t.urlKey);
    const rest: string[] = [];
    let cursor: string | null = first.body.data[0].nextCursor;
    while (cursor) {
      const next = await get(`after=${encodeURIComponent(cursor)}&$limit=2&pipeline=Sales,Partners,Legacy`);
      rest.push(...names(next.body.data[0].items));
      cursor = next.body.data[0].nextCursor;
    }
    expect(rest).toEqual(['L2', 'L3', 'L4', 'L1']);
    // The index follows the edit too.
    expect(await listed('q=phase')).toEqual(['L1']);
  });

  it('sync refuses $skip and $sort (INVALID_QUERY_FIELD)', async () => {
    for (const query of ['updatedAtFrom=2026-01-01&$skip=1', 'updatedAtFrom=2026-01-01&$sort[createdAt]=1']) {
      const answer = await get(query);
      expect(answer.status).toBe(400);
      expect(answer.body.data.error.code).toBe('INVALID_QUERY_FIELD');
    }
  });

  it('a malformed or foreign cursor is INVALID_QUERY_VALUE', async () => {
    const other = await seedListTenant(ctx());
    await insertLeads(
      ctx().store,
      other.urlKey,
      [1, 2].map((n) => ({
        pipelineId: other.pipelines.Sales!.id,
        stageId: other.pipelines.Sales!.stages.New!,
        createdAt: T0 + n,
      })),
    );
    const theirs = await get('updatedAtFrom=2026-01-01&$limit=1', other.urlKey, other.token);
    const foreign = theirs.body.data[0].nextCursor as string;
    expect(typeof foreign).toBe('string');
    const forged = Buffer.from(JSON.stringify([1, 'x', 1, 'ld'])).toString('base64url');
    for (const cursor of [foreign, 'not-a-cursor', forged, '', 'W1s=', '%00']) {
      const answer = await get(`after=${encodeURIComponent(cursor)}`);
      expect(answer.status, cursor).toBe(400);
      expect(answer.body.data.error.code).toBe('INVALID_QUERY_VALUE');
    }
    const sameQueryOther = await get(`after=${encodeURIComponent(foreign)}`, other.urlKey, other.token);
    expect(sameQueryOther.status).toBe(200);
  });
});
