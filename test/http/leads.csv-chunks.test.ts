// @module-tag pooled
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { syncSettled } from '../helpers/lead-rows.js';
import { TEST_ADMIN } from '../helpers/stores.js';
import { newExternalId, seedLeadTenant, type LeadTenant } from '../helpers/leads.js';

/**
 * Issue 39, the import at volume (docs/performance-leads.md "Import"): a chunk's rows are written with one
 * multi-row INSERT per table, and must store exactly what POST /leads stores for the same lead (activity,
 * webhook events, the counters the triggers keep, the sync position); a row refused, by the checks or by
 * the store, fails alone with its own error while the chunk's other rows are imported.
 */
describeEachStore(
  'lead CSV import in chunks: the same lead as POST /leads, and a bad row fails alone (issue 39)',
  (ctx) => {
    let t: LeadTenant;
    let endpointPk: number;
    const imports = () => `/admin/v1/businesses/${t.urlKey}/lead-imports`;
    const db = () => ctx().store.leads.db;
    const HEAD = [
      'externalId',
      'pipeline',
      'stage',
      'stageReasons',
      'subject',
      'details',
      'customerName',
      'customerCountry',
      'contactName',
      'contactEmail',
      'assignedTo',
      'tags',
      'budgetAmount',
    ];
    const csvOf = (rows: string[][]) =>
      [HEAD, ...rows].map((r) => r.map((c) => `"${c.replaceAll('"', '""')}"`).join(',')).join('\r\n');
    /** One lead's values as a CSV row and as the create body POST /leads takes. */
    const lead = (externalId: string, subject: string) => ({
      row: [
        externalId,
        'Sales',
        'Won',
        'Price',
        subject,
        'Twelve kW rooftop',
        'Imported Traders',
        'IN',
        'Meera',
        'meera@example.com',
        'asha@example.com',
        'Hot; VIP',
        '2500.25',
      ],
      body: {
        externalId,
        pipeline: 'Sales',
        stage: 'Won',
        stageReasons: ['Price'],
        subject,
        details: 'Twelve kW rooftop',
        customer: { name: 'Imported Traders', country: 'IN' },
        contact: { name: 'Meera', email: 'meera@example.com' },
        assignedTo: 'asha@example.com',
        tags: ['Hot', 'VIP'],
        budget: { amount: 2500.25 },
      },
    });
    const get = async (path: string) => {
      const answer = await call(ctx().app, 'GET', path, { token: t.operator });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.data;
    };
    const byExternalId = async (externalId: string) =>
      (await get(`${t.admin}?externalId=${encodeURIComponent(externalId)}`))[0].items[0];
    /** What the business's counters answer: the stage's count and budget, a tag's and a word's totals. */
    const counters = async () => {
      const totals = await get(`/admin/v1/businesses/${t.urlKey}/lead-stage-totals?pipeline=Sales`);
      const won = totals[0].stages.find((s: any) => s.name === 'Won');
      const total = async (query: string) => (await get(`${t.admin}?${query}`))[0].total as number;
      return {
        won: { count: won.count, budgets: won.budgets },
        vip: await total('tags=VIP'),
        rooftop: await total('q=rooftop'),
      };
    };
    /** The lead's outbox rows (events), in the order they were written, without their own ids and times. */
    const eventsOf = async (leadId: string, clientId: string) => {
      const { rows } = await sql<{ event_type: string; payload: string }>`select event_type, payload
        from webhook_outbox where endpoint_pk = ${endpointPk} order by id`.execute(db());
      return rows
        .map((r) => ({ type: r.event_type, data: JSON.parse(r.payload).data }))
        .filter((e) => e.data.leadId === leadId || e.data.clientId === clientId);
    };
    /** A lead's answer, activity or event with the values every create makes its own blanked. */
    const same = (value: unknown, own: Record<string, string>) => {
      let text = JSON.stringify(value);
      for (const [from, to] of Object.entries(own)) text = text.replaceAll(from, to);
      return JSON.parse(text);
    };

    beforeAll(async () => {
      t = await seedLeadTenant(ctx());
      const hook = await call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/webhooks`, {
        token: t.operator,
        body: { url: 'https://hooks.example.com/in', eventTypes: ['lead.created', 'client.created'] },
      });
      expect(hook.status, JSON.stringify(hook.body)).toBe(201);
      const { rows } = await sql<{ id: number }>`select id from webhook_endpoints
        where public_id = ${hook.body.data.id}`.execute(db());
      endpointPk = Number(rows[0]!.id);
    });

    it('an imported lead is stored as POST /leads stores it: answer, activity, events, counters, sync position', async () => {
      const since = new Date(Date.now() - 1000).toISOString();
      const before = await counters();
      const viaApi = lead(newExternalId(), 'Solar rooftop for the depot');
      const created = await call(ctx().app, 'POST', t.leads, { token: t.token, body: viaApi.body });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const afterOne = await counters();
      const viaImport = lead(newExternalId(), 'Solar rooftop for the depot');
      const imported = await call(ctx().app, 'POST', imports(), {
        token: t.operator,
        body: { csv: csvOf([viaImport.row]) },
      });
      expect(imported.body.data, JSON.stringify(imported.body)).toMatchObject({ created: 1, failed: 0 });
      const afterTwo = await counters();

      // Each create moved the counters by the same step.
      expect(afterOne.won.count - before.won.count).toBe(1);
      expect(afterTwo.won.count - afterOne.won.count).toBe(1);
      expect([afterOne.vip - before.vip, afterTwo.vip - afterOne.vip]).toEqual([1, 1]);
      expect([afterOne.rooftop - before.rooftop, afterTwo.rooftop - afterOne.rooftop]).toEqual([1, 1]);
      const sum = (c: typeof before) => Number(c.won.budgets.find((b: any) => b.currency === 'INR')?.amount ?? 0);
      expect([sum(afterOne) - sum(before), sum(afterTwo) - sum(afterOne)].map((n) => n.toFixed(2))).toEqual([
        '2500.25',
        '2500.25',
      ]);

      const api = await byExternalId(viaApi.body.externalId);
      const csv = await byExternalId(viaImport.body.externalId);
      const ownOf = (l: any) => ({
        [l.leadId]: 'LEAD',
        [l.externalId]: 'EXTERNAL',
        [l.customer.clientId]: 'CLIENT',
        [l.contact.contactId]: 'CONTACT',
        [l.createdAt]: 'AT',
      });
      expect(same(csv, ownOf(csv))).toEqual(same(api, ownOf(api)));
      expect(csv.source).toBe('API');

      const activity = async (l: any) =>
        (await get(`${t.admin}/${l.leadId}/activities`))[0].items.map((a: any) =>
          same({ ...a, activityId: 'ACTIVITY', author: 'AUTHOR' }, ownOf(l)),
        );
      expect(await activity(csv)).toEqual(await activity(api));
      expect(((await get(`${t.admin}/${csv.leadId}/activities`))[0].items as any[]).map((a) => a.author)).toEqual([
        TEST_ADMIN.email,
      ]);

      const events = async (l: any) => (await eventsOf(l.leadId, l.customer.clientId)).map((e) => same(e, ownOf(l)));
      const apiEvents = await events(api);
      expect(apiEvents.map((e: any) => e.type)).toEqual(['client.created', 'lead.created']);
      expect(await events(csv)).toEqual(apiEvents);

      // Both are on the sync pages after a position taken before them, in the order they were written.
      await syncSettled(ctx().store, t.urlKey);
      const synced: string[] = [];
      let page = (await get(`${t.admin}?updatedAtFrom=${encodeURIComponent(since)}&$limit=50`))[0];
      for (;;) {
        synced.push(...page.items.map((l: any) => l.leadId));
        if (!page.nextCursor) break;
        page = (await get(`${t.admin}?after=${encodeURIComponent(page.nextCursor)}&$limit=50`))[0];
      }
      expect(synced.filter((id) => id === api.leadId || id === csv.leadId)).toEqual([api.leadId, csv.leadId]);
    });

    it('a chunk with a bad row imports its good rows and names the bad row with its own error', async () => {
      const taken = lead(newExternalId(), 'Taken before');
      expect((await call(ctx().app, 'POST', t.leads, { token: t.token, body: taken.body })).status).toBe(201);
      const good = Array.from({ length: 6 }, (_, i) => lead(newExternalId(), `Good row ${i}`));
      const badStage = lead(newExternalId(), 'Bad stage');
      badStage.row[2] = 'Nowhere';
      const conflict = lead(taken.body.externalId, 'Other details');
      const rows = [good[0]!, good[1]!, badStage, good[2]!, good[3]!, conflict, good[4]!, good[5]!].map((l) => l.row);
      const answer = await call(ctx().app, 'POST', imports(), {
        token: t.operator,
        body: { csv: csvOf(rows), firstRow: 2 },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const { errors, ...counts } = answer.body.data;
      expect(counts).toEqual({ dryRun: false, rows: 8, created: 6, unchanged: 0, failed: 2 });
      expect(errors.map((e: any) => [e.row, e.externalId, e.code])).toEqual([
        [4, badStage.body.externalId, 'INVALID_STAGE'],
        [7, taken.body.externalId, 'IDEMPOTENCY_CONFLICT'],
      ]);
      for (const g of good) expect((await byExternalId(g.body.externalId)).subject).toBe(g.body.subject);
      expect((await byExternalId(taken.body.externalId)).subject).toBe('Taken before');
    });

    it('a row the store refuses fails alone: the chunk is written again row by row, the others imported once', async () => {
      const refuse = "new.subject = 'Refused by the store'";
      if (ctx().storeName === 'postgres') {
        await sql
          .raw(`create function test_refuse_subject() returns trigger language plpgsql as $$
            begin if ${refuse} then raise exception 'refused'; end if; return new; end $$`)
          .execute(db());
        await sql
          .raw(`create trigger test_refuse_subject before insert on leads
            for each row execute function test_refuse_subject()`)
          .execute(db());
      } else {
        await sql
          .raw(`create trigger test_refuse_subject before insert on leads when ${refuse}
            begin select raise(abort, 'refused'); end`)
          .execute(db());
      }
      const good = Array.from({ length: 4 }, (_, i) => lead(newExternalId(), `Kept row ${i}`));
      const refused = lead(newExternalId(), 'Refused by the store');
      const csv = csvOf([good[0]!, good[1]!, refused, good[2]!, good[3]!].map((l) => l.row));
      const answer = await call(ctx().app, 'POST', imports(), { token: t.operator, body: { csv } });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const { errors, ...counts } = answer.body.data;
      expect(counts).toEqual({ dryRun: false, rows: 5, created: 4, unchanged: 0, failed: 1 });
      expect(errors.map((e: any) => [e.row, e.externalId, e.code])).toEqual([
        [3, refused.body.externalId, 'SERVICE_ERROR'],
      ]);
      for (const g of good) {
        const stored = await byExternalId(g.body.externalId);
        expect((await get(`${t.admin}/${stored.leadId}/activities`))[0].items).toHaveLength(1);
      }
      expect(await get(`${t.admin}?externalId=${refused.body.externalId}`)).toMatchObject([{ total: 0 }]);
    });
  },
  {},
  { ownDatabase: true },
);
