// @module-tag dates
import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { createLead, seedLeadTenant, type LeadTenant } from '../helpers/leads.js';
import { insertLeads } from '../helpers/lead-rows.js';

/**
 * docs/decisions.md "Lead lists": free text over the word table (migration 007-lead-words), through the write side:
 * prefixes, several words and parameters, accents, removal, edits, and relevance as the sum over the
 * words of the best field each is found in (subject 3, details 2, names and e-mail 1), on both stores.
 */
describeEachStore('GET /leads: free-text words and relevance', (ctx) => {
  let t: LeadTenant;
  const made: Record<string, string> = {};
  const create = async (name: string, body: Record<string, unknown>) => {
    made[name] = (await createLead(ctx(), t, body)).leadId;
  };
  beforeAll(async () => {
    t = await seedLeadTenant(ctx());
    // Created in this order: a later lead comes first among equals (createdAt descending).
    await create('both', { subject: 'Quokka yarrow', details: 'nothing else' });
    await create('split', { subject: 'Quokka survey', details: 'Yarrow seeds' });
    await create('details', { subject: 'Garden', details: 'Quokka and yarrow' });
    await create('names', {
      subject: 'Fencing',
      customer: { name: 'Quokka Yarrow Farms' },
      contact: { name: 'Ana Lima', email: 'ana@quokkayarrow.in' },
    });
    await create('accents', { subject: 'Séance Ålborg Çay', contact: { name: 'Zoë Núñez' } });
    await create('long', { subject: 'Long brief', details: `${'lorem ipsum dolor '.repeat(550)}zephyrine` });
  });
  const list = async (query: string) => {
    const answer = await call(ctx().app, 'GET', `${t.leads}?${query}`, { token: t.token });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data[0] as { items: { leadId: string }[]; total: number };
  };
  const named = async (query: string) => {
    const page = await list(query);
    const names = page.items.map((item) => Object.keys(made).find((k) => made[k] === item.leadId) ?? item.leadId);
    if (!query.includes('$limit')) expect(page.total, query).toBe(names.length);
    return names;
  };

  it('relevance: each word counts its best field (subject > details > names), summed over the words', async () => {
    // both: 3+3; split: 3+2; details: 2+2; names: 1+1.
    expect(await named('q=quokka yarrow')).toEqual(['both', 'split', 'details', 'names']);
    // One word: subject (both, split) before details before names; equals newest first.
    expect(await named('q=quokka')).toEqual(['split', 'both', 'details', 'names']);
  });

  it('a prefix matches the beginning of a word only, and counts a lead once however many words it starts', async () => {
    expect(await named('q=quok')).toEqual(['split', 'both', 'details', 'names']);
    expect(await named('q=uokka')).toEqual([]);
    // "quokkayarrow" (the e-mail's word) and "quokka" both start with "quokka": one lead, best field.
    expect(await named('q=quokka&$limit=2')).toEqual(['split', 'both']);
    expect((await list('q=quokka&$limit=2')).total).toBe(4);
  });

  it('several words and several parameters must all match; subject and details look only at their field', async () => {
    expect(await named('q=quokka seeds')).toEqual(['split']);
    expect(await named('subject=quokka&details=yarrow')).toEqual(['split']);
    expect(await named('subject=yarrow')).toEqual(['both']);
    expect(await named('details=quokka')).toEqual(['details']);
    expect(await named('q=fencing&subject=quokka')).toEqual([]);
    expect(await named('q=ana&subject=fenc')).toEqual(['names']);
  });

  it('accents and case are ignored on both sides', async () => {
    for (const query of ['q=seance', 'q=SÉANCE', 'q=alborg', 'q=ÅLBORG cay', 'q=zoe nunez', 'q=Núñ'])
      expect(await named(query), query).toEqual(['accents']);
  });

  it('a word deep in a 10,000-character details is found', async () => {
    expect(await named('q=zephyr')).toEqual(['long']);
    expect(await named('details=zephyrine')).toEqual(['long']);
  });

  it('an edited subject is found by its new word and no longer by its old one; the other fields keep theirs', async () => {
    const own = await createLead(ctx(), t, { subject: 'Marmalade order', details: 'Bitter oranges' });
    expect(await named('q=marmalade')).toEqual([own.leadId]);
    const edited = await call(ctx().app, 'PATCH', `${t.leads}/${own.leadId}`, {
      token: t.token,
      body: { subject: 'Chutney order' },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(await named('q=marmalade')).toEqual([]);
    expect(await named('q=chutney')).toEqual([own.leadId]);
    expect(await named('q=chutney oranges')).toEqual([own.leadId]);
    // A word moving from the subject to the details keeps the lead, at the details' weight.
    await call(ctx().app, 'PATCH', `${t.leads}/${own.leadId}`, {
      token: t.token,
      body: { subject: 'Order', details: 'Chutney, bitter oranges' },
    });
    expect(await named('subject=chutney')).toEqual([]);
    expect(await named('details=chutney')).toEqual([own.leadId]);
  });

  it('a removed lead is found by no word', async () => {
    const own = await createLead(ctx(), t, { subject: 'Xylophone repair' });
    expect(await named('q=xylophone')).toEqual([own.leadId]);
    const removed = await call(ctx().app, 'DELETE', `${t.admin}/${own.leadId}`, { token: t.operator });
    expect(removed.status).toBe(200);
    expect(await named('q=xylophone')).toEqual([]);
    expect(await named('q=xylo&$sort[updatedAt]=-1')).toEqual([]);
  });

  it('a page past the last match is empty and still says the total, alone or with another filter', async () => {
    for (const query of [
      'q=quokka&$skip=10',
      'q=quokka&pipeline=Sales&$skip=10',
      'q=quokka&$sort[updatedAt]=1&$skip=4',
    ]) {
      expect(await list(query), query).toMatchObject({ items: [], total: 4 });
    }
    expect(await list('q=quokka&pipeline=Sales&$limit=1')).toMatchObject({ total: 4 });
    expect(await list('q=quokka&pipeline=Partners')).toMatchObject({ items: [], total: 0 });
  });

  it('equal relevance and createdAt: leadId descending decides, across the edge of a page', async () => {
    // Written straight to the store: the interface stamps its own createdAt.
    const place = await ctx()
      .store.leads.db.selectFrom('leads')
      .select(['pipeline_id', 'stage_id'])
      .where('lead_id', '=', made.both!)
      .executeTakeFirstOrThrow();
    const at = Date.UTC(2026, 2, 1);
    const ids = ['ld_tie_b', 'ld_tie_c', 'ld_tie_a'].map((id) => `${id}_${t.urlKey.slice(-6)}`);
    const stored = await insertLeads(
      ctx().store,
      t.urlKey,
      ids.map((leadId) => ({
        leadId,
        pipelineId: place.pipeline_id,
        stageId: place.stage_id,
        subject: 'Wombat twins',
        createdAt: at,
      })),
    );
    expect(stored.length).toBe(3);
    const expected = [...ids].sort().reverse();
    // With an updatedAt sort (equal here too) the page of one word's best class is walked in updatedAt order.
    for (const sort of ['', '&$sort[createdAt]=1', '&$sort[updatedAt]=-1', '&$sort[updatedAt]=1']) {
      const pages = [];
      for (let skip = 0; skip < 3; skip += 1)
        pages.push(...(await list(`q=wombat&$limit=1&$skip=${skip}${sort}`)).items.map((item) => item.leadId));
      expect(pages, sort).toEqual(expected);
      expect(
        (await list(`q=wombat&$limit=2${sort}`)).items.map((item) => item.leadId),
        sort,
      ).toEqual(expected.slice(0, 2));
    }
  });

  it('a search sorted by followUpDate, budget or updatedAt: ties and leads without a value in the documented order, across page edges', async () => {
    // One word's best class is walked along the sort's index (leads with a value only); the page edge
    // falls on ties (same value, then createdAt descending, then leadId descending), and leads without
    // a value come last in both directions (docs/decisions.md "Lead lists"), answered by the join.
    const place = await ctx()
      .store.leads.db.selectFrom('leads')
      .select(['pipeline_id', 'stage_id'])
      .where('lead_id', '=', made.both!)
      .executeTakeFirstOrThrow();
    const day = Date.UTC(2026, 3, 1);
    const specs = [
      { key: 'a', followUpDate: '2026-05-02', amount: 300, createdAt: day, updatedAt: day + 5 },
      { key: 'b', followUpDate: '2026-05-01', amount: 100, createdAt: day, updatedAt: day + 5 },
      { key: 'c', followUpDate: '2026-05-01', amount: 100, createdAt: day + 1, updatedAt: day + 5 },
      { key: 'd', followUpDate: '2026-05-01', amount: 100, createdAt: day, updatedAt: day + 7 },
      { key: 'e', followUpDate: null, amount: null, createdAt: day + 2, updatedAt: day + 3 },
      { key: 'f', followUpDate: '2026-05-03', amount: null, createdAt: day, updatedAt: day + 3 },
      { key: 'g', followUpDate: null, amount: 200, createdAt: day, updatedAt: day + 5 },
      { key: 'h', followUpDate: null, amount: null, createdAt: day, updatedAt: day + 9 },
    ].map((spec) => ({ ...spec, leadId: `ld_numbat_${spec.key}_${t.urlKey.slice(-6)}` }));
    const stored = await insertLeads(
      ctx().store,
      t.urlKey,
      specs.map((spec) => ({
        leadId: spec.leadId,
        pipelineId: place.pipeline_id,
        stageId: place.stage_id,
        subject: 'Numbat survey',
        followUpDate: spec.followUpDate,
        budget: spec.amount === null ? null : { amount: spec.amount, currency: 'EUR' },
        createdAt: spec.createdAt,
        updatedAt: spec.updatedAt,
      })),
    );
    expect(stored.length).toBe(specs.length);
    const value = {
      followUpDate: (s: (typeof specs)[number]) => s.followUpDate,
      'budget.amount': (s: (typeof specs)[number]) => s.amount,
      updatedAt: (s: (typeof specs)[number]) => s.updatedAt,
    };
    for (const field of ['followUpDate', 'budget.amount', 'updatedAt'] as const) {
      for (const direction of [1, -1]) {
        const sort = `&$sort[${field}]=${direction}`;
        const expected = [...specs]
          .sort((x, y) => {
            const [vx, vy] = [value[field](x), value[field](y)];
            if ((vx === null) !== (vy === null)) return vx === null ? 1 : -1;
            if (vx !== null && vy !== null && vx !== vy) return (vx < vy ? -1 : 1) * direction;
            if (x.createdAt !== y.createdAt) return y.createdAt - x.createdAt;
            return x.leadId < y.leadId ? 1 : -1;
          })
          .map((spec) => spec.leadId);
        for (const limit of [1, 2, 3]) {
          const pages: string[] = [];
          for (let skip = 0; skip < specs.length; skip += limit) {
            const page = await list(`q=numbat&$limit=${limit}&$skip=${skip}${sort}`);
            expect(page.total, sort).toBe(specs.length);
            pages.push(...page.items.map((item) => item.leadId));
          }
          expect(pages, `${sort} by ${limit}`).toEqual(expected);
        }
      }
    }
  });

  it('pages of a search neither overlap nor skip, in the default order and with a sort', async () => {
    for (const sort of ['', '&$sort[createdAt]=1', '&$sort[updatedAt]=-1']) {
      const whole = await named(`q=quokka${sort}`);
      const pages = [];
      for (let skip = 0; skip < 4; skip += 1) pages.push(...(await named(`q=quokka&$limit=1&$skip=${skip}${sort}`)));
      expect(pages, sort).toEqual(whole);
    }
    // One stored word sorted by updatedAt: pages its best class holds are walked, the others joined.
    for (const sort of ['&$sort[updatedAt]=-1', '&$sort[updatedAt]=1']) {
      const whole = await list(`q=yarrow${sort}`);
      const pages = [];
      for (let skip = 0; skip < whole.total; skip += 1) {
        const page = await list(`q=yarrow&$limit=1&$skip=${skip}${sort}`);
        expect(page.total, sort).toBe(whole.total);
        pages.push(...page.items.map((item) => item.leadId));
      }
      expect(pages, sort).toEqual(whole.items.map((item) => item.leadId));
    }
  });
});
