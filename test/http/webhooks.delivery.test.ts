// @module-tag pooled
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { randomKey, seedTenant, type Tenant } from '../helpers/seed.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';

const FAST = { webhooksDeliver: true, webhooksAllowPrivate: true, webhooksRetryBaseMs: 50, webhooksPollMs: 50 };

describeEachStore(
  'webhooks: signed delivery from the outbox',
  (ctx) => {
    const receiver = new WebhookReceiver();
    let t: Tenant;
    let endpointId: string;

    beforeAll(async () => {
      await receiver.start();
      t = await seedTenant(ctx().app);
      const created = await call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/webhooks`, {
        token: t.operator,
        body: {
          url: receiver.url,
          eventTypes: ['client.created', 'client.archived', 'client.deleted'],
          description: 'test receiver',
        },
      });
      expect(created.status).toBe(201);
      expect(created.body.data.secret).toMatch(/^whsec_/);
      receiver.secrets = [created.body.data.secret];
      endpointId = created.body.data.id;
    });
    afterAll(() => receiver.stop());

    const clients = () => `/api/v1/businesses/${t.urlKey}/clients`;

    it('client.created arrives signed (standardwebhooks verifies it), data in the public shape, once per create', async () => {
      const clientId = randomKey('wh');
      const created = await call(ctx().app, 'POST', clients(), { token: t.token, body: { clientId, name: 'Hooked' } });
      expect(created.status).toBe(201);
      const retry = await call(ctx().app, 'POST', clients(), { token: t.token, body: { clientId, name: 'Hooked' } });
      expect(retry.body.data.idempotent).toBe(true);
      const got = await receiver.until((r) => r.some((e) => e.data.clientId === clientId));
      const mine = got.filter((e) => e.data.clientId === clientId);
      expect(mine).toHaveLength(1);
      expect(mine[0]!.type).toBe('client.created');
      expect(mine[0]!.verifiedWith).toEqual(receiver.secrets);
      expect(mine[0]!.id).toMatch(/^msg_/);
      expect(mine[0]!.data).toEqual(created.body.data);
      expect(JSON.parse(mine[0]!.body)).toMatchObject({
        type: 'client.created',
        timestamp: created.body.data.createdAt,
      });
      expect(receiver.unverified).toEqual([]);
    });

    it('no event for a refused create (400) or a conflicting retry (409): nothing was written, nothing is sent', async () => {
      const clientId = randomKey('no');
      expect(
        (
          await call(ctx().app, 'POST', clients(), {
            token: t.token,
            body: { clientId, name: 'X', email: 'not-an-email' },
          })
        ).status,
      ).toBe(400);
      const marker = randomKey('marker');
      expect(
        (await call(ctx().app, 'POST', clients(), { token: t.token, body: { clientId: marker, name: 'First' } }))
          .status,
      ).toBe(201);
      expect(
        (await call(ctx().app, 'POST', clients(), { token: t.token, body: { clientId: marker, name: 'Other' } }))
          .status,
      ).toBe(409);
      const sentinel = randomKey('sentinel');
      expect(
        (await call(ctx().app, 'POST', clients(), { token: t.token, body: { clientId: sentinel, name: 'After' } }))
          .status,
      ).toBe(201);
      await receiver.until((r) => r.some((e) => e.data.clientId === sentinel));
      expect(receiver.received.filter((e) => e.data.clientId === clientId)).toHaveLength(0);
      expect(receiver.received.filter((e) => e.data.clientId === marker)).toHaveLength(1);
    });

    it('archive then delete: the events of one client arrive in order, with status; a repeated delete sends nothing', async () => {
      const clientId = randomKey('ord');
      await call(ctx().app, 'POST', clients(), { token: t.token, body: { clientId, name: 'Ordered' } });
      const admin = `/admin/v1/businesses/${t.urlKey}/clients/${clientId}`;
      expect((await call(ctx().app, 'POST', `${admin}/archive`, { token: t.operator })).status).toBe(200);
      expect((await call(ctx().app, 'DELETE', admin, { token: t.operator })).status).toBe(200);
      expect((await call(ctx().app, 'DELETE', admin, { token: t.operator })).status).toBe(200);
      const got = await receiver.until((r) => r.filter((e) => e.data.clientId === clientId).length >= 3);
      await new Promise((r) => setTimeout(r, 200));
      const mine = got.filter((e) => e.data.clientId === clientId);
      expect(mine.map((e) => e.type)).toEqual(['client.created', 'client.archived', 'client.deleted']);
      expect(mine.map((e) => e.data.status)).toEqual([undefined, 'archived', 'deleted']);
    });

    it('dashboard-made clients emit client.created too', async () => {
      const name = randomKey('dash');
      const made = await call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/clients`, {
        token: t.operator,
        body: { name, source: 'INVOICE' },
      });
      expect(made.status).toBe(201);
      const got = await receiver.until((r) => r.some((e) => e.data.name === name));
      expect(got.find((e) => e.data.name === name)!.data).toEqual(made.body.data);
    });

    it('the delivery log lists each attempt; resend sends the same webhook-id again; a test event arrives whatever the subscription', async () => {
      const log = await call(
        ctx().app,
        'GET',
        `/admin/v1/businesses/${t.urlKey}/webhooks/${endpointId}/deliveries?pageSize=5`,
        { token: t.operator },
      );
      expect(log.status).toBe(200);
      const first = log.body.data.attempts[0];
      expect(first).toMatchObject({ statusCode: 204, attempt: 1, error: null });
      expect(first.durationMs).toBeGreaterThanOrEqual(0);
      const resent = await call(
        ctx().app,
        'POST',
        `/admin/v1/businesses/${t.urlKey}/webhooks/${endpointId}/events/${first.eventId}/resend`,
        { token: t.operator },
      );
      expect(resent.status).toBe(202);
      await receiver.until((r) => r.filter((e) => e.id === first.eventId).length === 2);
      const twice = receiver.received.filter((e) => e.id === first.eventId);
      expect(twice[0]!.body).toBe(twice[1]!.body);

      const test = await call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/webhooks/${endpointId}/test`, {
        token: t.operator,
      });
      expect(test.status).toBe(202);
      const got = await receiver.until((r) => r.some((e) => e.id === test.body.data.eventId));
      expect(got.find((e) => e.id === test.body.data.eventId)!.type).toBe('webhook.test');
      expect(
        (
          await call(
            ctx().app,
            'POST',
            `/admin/v1/businesses/${t.urlKey}/webhooks/${endpointId}/events/msg_nope/resend`,
            { token: t.operator },
          )
        ).body.data.error.code,
      ).toBe('WEBHOOK_EVENT_NOT_FOUND');
    });

    it('rotation: during the overlap every delivery verifies with the old secret and with the new one', async () => {
      const old = receiver.secrets[0]!;
      const rotated = await call(
        ctx().app,
        'POST',
        `/admin/v1/businesses/${t.urlKey}/webhooks/${endpointId}/rotate-secret`,
        { token: t.operator },
      );
      expect(rotated.status).toBe(200);
      const fresh = rotated.body.data.secret as string;
      expect(fresh).not.toBe(old);
      receiver.secrets = [old, fresh];
      const clientId = randomKey('rot');
      await call(ctx().app, 'POST', clients(), { token: t.token, body: { clientId, name: 'Rotated' } });
      const got = await receiver.until((r) => r.some((e) => e.data.clientId === clientId));
      const delivery = got.find((e) => e.data.clientId === clientId)!;
      expect(delivery.verifiedWith).toEqual([old, fresh]);
      expect(delivery.signature.split(' ')).toHaveLength(2);
      const shown = await call(ctx().app, 'GET', `/admin/v1/businesses/${t.urlKey}/webhooks/${endpointId}`, {
        token: t.operator,
      });
      expect(shown.body.data.previousSecretExpiresAt).toBe(rotated.body.data.previousSecretExpiresAt);
      expect(JSON.stringify(shown.body)).not.toMatch(/whsec_/);
    });

    it('an unsubscribed type is not sent; a disabled endpoint gets nothing', async () => {
      await call(ctx().app, 'PATCH', `/admin/v1/businesses/${t.urlKey}/webhooks/${endpointId}`, {
        token: t.operator,
        body: { eventTypes: ['client.deleted'] },
      });
      const quiet = randomKey('quiet');
      await call(ctx().app, 'POST', clients(), { token: t.token, body: { clientId: quiet, name: 'Quiet' } });
      await call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/clients/${quiet}/archive`, { token: t.operator });
      await call(ctx().app, 'PATCH', `/admin/v1/businesses/${t.urlKey}/webhooks/${endpointId}`, {
        token: t.operator,
        body: { enabled: false, eventTypes: ['client.created'] },
      });
      await call(ctx().app, 'POST', clients(), { token: t.token, body: { clientId: randomKey('off'), name: 'Off' } });
      await call(ctx().app, 'PATCH', `/admin/v1/businesses/${t.urlKey}/webhooks/${endpointId}`, {
        token: t.operator,
        body: { enabled: true },
      });
      const on = randomKey('on');
      await call(ctx().app, 'POST', clients(), { token: t.token, body: { clientId: on, name: 'On' } });
      await receiver.until((r) => r.some((e) => e.data.clientId === on));
      expect(receiver.received.filter((e) => e.data.clientId === quiet || e.data.name === 'Off')).toEqual([]);
    });
  },
  FAST,
  { ownDatabase: true },
);
