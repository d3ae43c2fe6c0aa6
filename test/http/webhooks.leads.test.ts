import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { createLead, minimalLead, seedLeadTenant, type LeadTenant } from '../helpers/leads.js';
import { WebhookReceiver, type Received } from '../helpers/webhook-receiver.js';

const FAST = { webhooksDeliver: true, webhooksAllowPrivate: true, webhooksRetryBaseMs: 50, webhooksPollMs: 50 };

describeEachStore(
  'webhooks: lead.created, lead.updated, lead.stage_changed',
  (ctx) => {
    const receiver = new WebhookReceiver();
    let t: LeadTenant;

    beforeAll(async () => {
      await receiver.start();
      t = await seedLeadTenant(ctx());
      const created = await call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/webhooks`, {
        token: t.operator,
        body: { url: receiver.url, eventTypes: ['lead.created', 'lead.updated', 'lead.stage_changed'] },
      });
      expect(created.status).toBe(201);
      receiver.secrets = [created.body.data.secret];
    });
    afterAll(() => receiver.stop());

    const patch = (leadId: string, body: unknown) =>
      call(ctx().app, 'PATCH', `${t.leads}/${leadId}`, { token: t.token, body });
    const of = (leadId: string) => receiver.received.filter((e) => e.data.leadId === leadId);
    /** Every event of the lead up to the one `last` names: in order per lead, anything earlier has arrived by then. */
    const through = async (leadId: string, last: (e: Received) => boolean) => {
      await receiver.until(() => of(leadId).some(last));
      return of(leadId);
    };

    it('lead.created arrives signed, data is the create answer; an identical retry sends nothing', async () => {
      const body = minimalLead({ subject: 'Hooked' });
      const created = await call(ctx().app, 'POST', t.leads, { token: t.token, body });
      expect(created.status).toBe(201);
      const retry = await call(ctx().app, 'POST', t.leads, { token: t.token, body });
      expect(retry.body.data.idempotent).toBe(true);
      const leadId = created.body.data.leadId as string;
      expect((await patch(leadId, { subject: 'Sentinel' })).status).toBe(200);
      const mine = await through(leadId, (e) => e.data.subject === 'Sentinel');
      expect(mine.map((e) => e.type)).toEqual(['lead.created', 'lead.updated']);
      expect(mine[0]!.data).toEqual(created.body.data);
      expect(mine[0]!.verifiedWith).toEqual(receiver.secrets);
      expect(JSON.parse(mine[0]!.body)).toMatchObject({ type: 'lead.created', timestamp: created.body.data.createdAt });
      expect(receiver.unverified).toEqual([]);
    });

    it('no lead.created for a refused create (400) or a conflicting retry (409)', async () => {
      const refused = minimalLead({ stage: 'No such stage' });
      expect((await call(ctx().app, 'POST', t.leads, { token: t.token, body: refused })).status).toBe(400);
      const first = minimalLead({ subject: 'First' });
      expect((await call(ctx().app, 'POST', t.leads, { token: t.token, body: first })).status).toBe(201);
      expect(
        (await call(ctx().app, 'POST', t.leads, { token: t.token, body: { ...first, subject: 'Other' } })).status,
      ).toBe(409);
      const sentinel = await createLead(ctx(), t);
      await receiver.until(() => of(sentinel.leadId).length > 0);
      const byExternalId = (id: string) => receiver.received.filter((e) => e.data.externalId === id);
      expect(byExternalId(refused.externalId as string)).toEqual([]);
      expect(byExternalId(first.externalId as string).map((e) => [e.type, e.data.subject])).toEqual([
        ['lead.created', 'First'],
      ]);
    });

    it('an edit sends lead.updated with the PATCH answer; a PATCH that changes nothing, or only adds a comment, sends nothing', async () => {
      const lead = await createLead(ctx(), t, { subject: 'Before' });
      const edited = await patch(lead.leadId, { subject: 'After', tagsAdd: ['Hot'] });
      expect(edited.status).toBe(200);
      const same = await patch(lead.leadId, { subject: 'After', tags: ['Hot'] });
      expect(same.body.data.updatedAt).toBe(edited.body.data.updatedAt);
      expect((await patch(lead.leadId, { addComments: { body: ['Called them'] } })).status).toBe(200);
      expect((await patch(lead.leadId, { details: 'Sentinel' })).status).toBe(200);
      const mine = await through(lead.leadId, (e) => e.data.details === 'Sentinel');
      expect(mine.map((e) => e.type)).toEqual(['lead.created', 'lead.updated', 'lead.updated']);
      expect(mine[1]!.data).toEqual(edited.body.data);
      expect(JSON.parse(mine[1]!.body).timestamp).toBe(edited.body.data.updatedAt);
    });

    it('a stage move sends lead.updated, then lead.stage_changed with the previous and the current pipeline, stage and status', async () => {
      const lead = await createLead(ctx(), t);
      const moved = await patch(lead.leadId, { pipeline: 'Partners', stage: 'Signed', stageReasons: ['Good fit'] });
      expect(moved.status).toBe(200);
      const mine = await through(lead.leadId, (e) => e.type === 'lead.stage_changed');
      expect(mine.map((e) => e.type)).toEqual(['lead.created', 'lead.updated', 'lead.stage_changed']);
      expect(mine[1]!.data).toEqual(moved.body.data);
      expect(mine[2]!.data).toEqual({
        ...moved.body.data,
        previous: { pipeline: 'Sales', stage: 'New', status: 'NEW' },
        current: { pipeline: 'Partners', stage: 'Signed', status: 'CLOSED' },
      });
      expect(mine[2]!.id).not.toBe(mine[1]!.id);
    });

    it('new reasons on the same stage are lead.updated only: the lead did not move', async () => {
      const lead = await createLead(ctx(), t, { stage: 'Lost', stageReasons: ['Price'] });
      const edited = await patch(lead.leadId, { stageReasons: [] });
      expect(edited.body.data.stageReasons).toEqual([]);
      expect((await patch(lead.leadId, { subject: 'Sentinel' })).status).toBe(200);
      const mine = await through(lead.leadId, (e) => e.data.subject === 'Sentinel');
      expect(mine.map((e) => e.type)).toEqual(['lead.created', 'lead.updated', 'lead.updated']);
    });

    it('several edits of one lead arrive in the order they were made, each with the lead as it was then', async () => {
      const lead = await createLead(ctx(), t);
      const stages = ['Qualified', 'Won', 'Lost', 'New', 'Qualified'];
      const reasons: Record<string, string[]> = { Won: ['Price'], Lost: ['Price'] };
      for (const [i, stage] of stages.entries()) {
        const r = await patch(lead.leadId, {
          stage,
          subject: `step ${i}`,
          ...(reasons[stage] && { stageReasons: reasons[stage] }),
        });
        expect(r.status).toBe(200);
      }
      const mine = await through(lead.leadId, (e) => e.type === 'lead.stage_changed' && e.data.subject === 'step 4');
      const moves = mine.filter((e) => e.type === 'lead.stage_changed');
      expect(moves.map((e) => [e.data.previous.stage, e.data.current.stage])).toEqual(
        stages.map((stage, i) => [i === 0 ? 'New' : stages[i - 1], stage]),
      );
      expect(mine.filter((e) => e.type === 'lead.updated').map((e) => e.data.subject)).toEqual(
        stages.map((_, i) => `step ${i}`),
      );
      expect(new Set(mine.map((e) => e.id)).size).toBe(mine.length);
    });

    it("a rolled-back edit sends nothing: the event is written in the lead's own transaction", async () => {
      const lead = await createLead(ctx(), t);
      const leads = ctx().store.leads as unknown as {
        transaction: (work: (trx: unknown) => Promise<unknown>) => Promise<unknown>;
      };
      const original = leads.transaction.bind(leads);
      // Fails the transaction after the lead and its outbox rows were written, before the commit.
      const spy = vi.spyOn(leads, 'transaction').mockImplementation((work) =>
        original(async (trx) => {
          await work(trx);
          throw new Error('injected failure before commit');
        }),
      );
      try {
        expect(
          (await patch(lead.leadId, { stage: 'Won', stageReasons: ['Price'], subject: 'Rolled back' })).status,
        ).toBe(500);
      } finally {
        spy.mockRestore();
      }
      expect((await call(ctx().app, 'GET', `${t.leads}/${lead.leadId}`, { token: t.token })).body.data.stage).toBe(
        'New',
      );
      expect((await patch(lead.leadId, { subject: 'Sentinel' })).status).toBe(200);
      const mine = await through(lead.leadId, (e) => e.data.subject === 'Sentinel');
      expect(mine.map((e) => e.type)).toEqual(['lead.created', 'lead.updated']);
    });

    it("the dashboard's create and edit send events too; its remove sends none (there is no type for it)", async () => {
      const made = await call(ctx().app, 'POST', t.admin, {
        token: t.operator,
        body: { customer: { name: 'Walk-in' }, contact: { name: 'Visitor' }, pipeline: 'Sales', stage: 'New' },
      });
      expect(made.status).toBe(201);
      const leadId = made.body.data.leadId as string;
      expect(
        (await call(ctx().app, 'PATCH', `${t.admin}/${leadId}`, { token: t.operator, body: { stage: 'Qualified' } }))
          .status,
      ).toBe(200);
      expect((await call(ctx().app, 'DELETE', `${t.admin}/${leadId}`, { token: t.operator })).status).toBe(200);
      const sentinel = await createLead(ctx(), t);
      await receiver.until(() => of(sentinel.leadId).length > 0);
      await receiver.until(() => of(leadId).length >= 3);
      await new Promise((r) => setTimeout(r, 200));
      expect(of(leadId).map((e) => e.type)).toEqual(['lead.created', 'lead.updated', 'lead.stage_changed']);
      expect(of(leadId)[0]!.data.source).toBe('DASHBOARD');
    });

    it('a lead create that names a new customer sends client.created for that client, as GET client answers it; one naming a stored client, a retry or a refused create sends none', async () => {
      const clients = new WebhookReceiver();
      await clients.start();
      try {
        const endpoint = await call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/webhooks`, {
          token: t.operator,
          body: { url: clients.url, eventTypes: ['client.created'] },
        });
        expect(endpoint.status).toBe(201);
        clients.secrets = [endpoint.body.data.secret];
        const body = minimalLead({ customer: { name: 'Fresh Customer Co', phone: '+91 98765 43210' } });
        const made = await call(ctx().app, 'POST', t.leads, { token: t.token, body });
        expect(made.status).toBe(201);
        expect((await call(ctx().app, 'POST', t.leads, { token: t.token, body })).body.data.idempotent).toBe(true);
        const clientId = made.body.data.customer.clientId as string;
        expect(clientId).toBe(`lead-${made.body.data.leadId}`);
        // Names the client just made: no second client, so no second client.created.
        const again = await call(ctx().app, 'POST', t.leads, {
          token: t.token,
          body: minimalLead({ customer: { clientId } }),
        });
        expect(again.status).toBe(201);
        expect(
          (
            await call(ctx().app, 'POST', t.leads, {
              token: t.token,
              body: minimalLead({ customer: { name: 'Refused Co' }, stage: 'No such stage' }),
            })
          ).status,
        ).toBe(400);
        // A sentinel: events of one endpoint arrive in order per resource, not across them, so wait for both.
        const sentinel = await call(ctx().app, 'POST', t.leads, {
          token: t.token,
          body: minimalLead({ customer: { name: 'Sentinel Co' } }),
        });
        await clients.until(
          () =>
            clients.received.some((e) => e.data.clientId === sentinel.body.data.customer.clientId) &&
            clients.received.some((e) => e.data.clientId === clientId),
        );
        await new Promise((r) => setTimeout(r, 200));
        const got = clients.received.filter((e) => e.type === 'client.created');
        expect(got.map((e) => e.data.name).sort()).toEqual(['Fresh Customer Co', 'Sentinel Co']);
        const fresh = got.find((e) => e.data.clientId === clientId)!;
        const read = await call(ctx().app, 'GET', `/api/v1/businesses/${t.urlKey}/clients/${clientId}`, {
          token: t.token,
        });
        expect(read.status).toBe(200);
        expect(fresh.data).toEqual(read.body.data);
        expect(clients.unverified).toEqual([]);
      } finally {
        await clients.stop();
      }
    });
  },
  FAST,
  { ownDatabase: true },
);
