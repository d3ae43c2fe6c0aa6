import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { randomKey, seedTenant, type Tenant } from '../helpers/seed.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';

const CLIENT_EVENTS = ['client.created', 'client.archived', 'client.deleted'];

async function endpointFor(
  app: Parameters<typeof call>[0],
  t: Tenant,
  url: string,
): Promise<{ id: string; secret: string }> {
  const r = await call(app, 'POST', `/admin/v1/businesses/${t.urlKey}/webhooks`, {
    token: t.operator,
    body: { url, eventTypes: CLIENT_EVENTS },
  });
  if (r.status !== 201) throw new Error(JSON.stringify(r.body));
  return r.body.data;
}

describeEachStore(
  'webhooks: the receiver is down for a while, then up',
  (ctx) => {
    const receiver = new WebhookReceiver();
    beforeAll(() => receiver.start());
    afterAll(() => receiver.stop());

    it('every event arrives once it is back, in order per client, each verified', async () => {
      const t = await seedTenant(ctx().app);
      const endpoint = await endpointFor(ctx().app, t, receiver.url);
      receiver.secrets = [endpoint.secret];
      const port = receiver.port;
      await receiver.stop(); // connection refused from now on
      const ids = Array.from({ length: 4 }, () => randomKey('down'));
      for (const clientId of ids) {
        expect(
          (
            await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, {
              token: t.token,
              body: { clientId, name: clientId },
            })
          ).status,
        ).toBe(201);
      }
      for (const clientId of ids)
        await call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/clients/${clientId}/archive`, {
          token: t.operator,
        });
      for (const clientId of ids.slice(0, 2))
        await call(ctx().app, 'DELETE', `/admin/v1/businesses/${t.urlKey}/clients/${clientId}`, { token: t.operator });
      await new Promise((r) => setTimeout(r, 800));
      const failures = await call(
        ctx().app,
        'GET',
        `/admin/v1/businesses/${t.urlKey}/webhooks/${endpoint.id}/deliveries?pageSize=200`,
        { token: t.operator },
      );
      expect(failures.body.data.attempts.length).toBeGreaterThan(0);
      expect(
        failures.body.data.attempts.every(
          (a: { statusCode: number | null; error: string }) => a.statusCode === null && a.error,
        ),
      ).toBe(true);

      // An answer of 500 is a failure too: up, but broken, for a moment.
      receiver.answer = 500;
      await receiver.start(port);
      await new Promise((r) => setTimeout(r, 300));
      receiver.answer = 204;
      const got = await receiver.until((r) => r.length >= 10, 20_000);
      expect(got).toHaveLength(10);
      for (const [i, clientId] of ids.entries()) {
        expect(
          got.filter((e) => e.data.clientId === clientId).map((e) => e.type),
          clientId,
        ).toEqual(i < 2 ? CLIENT_EVENTS : CLIENT_EVENTS.slice(0, 2));
      }
      expect(receiver.unverified).toEqual([]);
      const ep = await call(ctx().app, 'GET', `/admin/v1/businesses/${t.urlKey}/webhooks/${endpoint.id}`, {
        token: t.operator,
      });
      expect(ep.body.data).toMatchObject({ enabled: true, disabledReason: null });
    }, 40_000);
  },
  { webhooksDeliver: true, webhooksAllowPrivate: true, webhooksRetryBaseMs: 20, webhooksPollMs: 20 },
  { ownDatabase: true },
);

describeEachStore(
  'webhooks: an endpoint failing for the whole schedule is disabled, and resumes when enabled',
  (ctx) => {
    const receiver = new WebhookReceiver();
    afterAll(() => receiver.stop());

    it('14 attempts, then enabled false with disabledReason failing; enabling again delivers new events', async () => {
      await receiver.start();
      const port = receiver.port;
      const t = await seedTenant(ctx().app);
      const endpoint = await endpointFor(ctx().app, t, receiver.url);
      receiver.secrets = [endpoint.secret];
      await receiver.stop();
      const first = randomKey('gone');
      await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, {
        token: t.token,
        body: { clientId: first, name: 'Gone' },
      });
      const path = `/admin/v1/businesses/${t.urlKey}/webhooks/${endpoint.id}`;
      const deadline = Date.now() + 20_000;
      let shown: { enabled: boolean };
      do {
        await new Promise((r) => setTimeout(r, 100));
        shown = (await call(ctx().app, 'GET', path, { token: t.operator })).body.data;
      } while (shown.enabled && Date.now() < deadline);
      expect(shown).toMatchObject({ enabled: false, disabledReason: 'failing' });
      const log = (await call(ctx().app, 'GET', `${path}/deliveries?pageSize=50`, { token: t.operator })).body.data
        .attempts;
      expect(log.map((a: { attempt: number }) => a.attempt)).toEqual(Array.from({ length: 14 }, (_, i) => 14 - i));

      // While disabled nothing is written for it; enabling again resumes (the given-up event stays given up).
      await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, {
        token: t.token,
        body: { clientId: randomKey('while-off'), name: 'Off' },
      });
      await receiver.start(port);
      const enabled = await call(ctx().app, 'PATCH', path, { token: t.operator, body: { enabled: true } });
      expect(enabled.body.data).toMatchObject({ enabled: true, disabledReason: null });
      const after = randomKey('back');
      await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, {
        token: t.token,
        body: { clientId: after, name: 'Back' },
      });
      await receiver.until((r) => r.some((e) => e.data.clientId === after));
      expect(receiver.received.map((e) => e.data.clientId)).toEqual([after]);
    }, 40_000);
  },
  { webhooksDeliver: true, webhooksAllowPrivate: true, webhooksRetryBaseMs: 0, webhooksPollMs: 10 },
  { ownDatabase: true },
);

describeEachStore(
  'webhooks: destinations are checked again at every attempt',
  (ctx) => {
    const receiver = new WebhookReceiver();
    beforeAll(() => receiver.start());
    afterAll(() => receiver.stop());

    it('a saved endpoint on localhost is refused on its resolved address once private targets are no longer allowed', async () => {
      const t = await seedTenant(ctx().app);
      const endpoint = await endpointFor(ctx().app, t, `http://localhost:${receiver.port}/hook`);
      receiver.secrets = [endpoint.secret];
      // The operator turns WEBHOOKS_ALLOW_PRIVATE off (as a restart with the setting changed would).
      ctx().config.webhooksAllowPrivate = false;
      try {
        const test = await call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/webhooks/${endpoint.id}/test`, {
          token: t.operator,
        });
        expect(test.status).toBe(202);
        const path = `/admin/v1/businesses/${t.urlKey}/webhooks/${endpoint.id}/deliveries`;
        let attempts: { error: string | null; statusCode: number | null }[] = [];
        for (let i = 0; i < 100 && attempts.length === 0; i++) {
          await new Promise((r) => setTimeout(r, 50));
          attempts = (await call(ctx().app, 'GET', path, { token: t.operator })).body.data.attempts;
        }
        expect(attempts[0]).toMatchObject({
          statusCode: null,
          error: expect.stringMatching(/destination refused: localhost resolves to a loopback/),
        });
        expect(receiver.received).toEqual([]);
      } finally {
        ctx().config.webhooksAllowPrivate = true;
      }
    });
  },
  { webhooksDeliver: true, webhooksAllowPrivate: true, webhooksRetryBaseMs: 60_000, webhooksPollMs: 20 },
  { ownDatabase: true },
);
