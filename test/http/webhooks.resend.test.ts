// @module-tag pooled
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { seedTenant, type Tenant } from '../helpers/seed.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';

// Issue 39 defect 8: a resend waited for the event's pending retry (~10 s) and was logged as
// "attempt 1" again. The retry base here is the production one, so a resend that waited would miss.
const RETRY_BASE_MS = 10_000;
const PROMPTLY_MS = 3_000;

describeEachStore(
  'webhooks: resend sends at once, as the next attempt',
  (ctx) => {
    const receiver = new WebhookReceiver();
    let t: Tenant;
    let hooks: string;

    beforeAll(async () => {
      await receiver.start();
      t = await seedTenant(ctx().app);
      const created = await call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/webhooks`, {
        token: t.operator,
        body: { url: receiver.url, eventTypes: ['client.created'] },
      });
      expect(created.status).toBe(201);
      receiver.secrets = [created.body.data.secret];
      hooks = `/admin/v1/businesses/${t.urlKey}/webhooks/${created.body.data.id}`;
    });
    afterAll(() => receiver.stop());

    const attempts = async () =>
      (await call(ctx().app, 'GET', `${hooks}/deliveries`, { token: t.operator })).body.data.attempts as {
        attempt: number;
        statusCode: number | null;
      }[];
    async function logHolds(count: number) {
      const deadline = Date.now() + PROMPTLY_MS;
      while ((await attempts()).length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      return (await attempts()).map((a) => [a.attempt, a.statusCode]);
    }

    it('a failed event waiting for its retry is sent now as attempt 2; a delivered one again as attempt 3', async () => {
      receiver.answer = 500;
      const test = await call(ctx().app, 'POST', `${hooks}/test`, { token: t.operator });
      expect(test.status).toBe(202);
      const eventId = test.body.data.eventId as string;
      expect(await logHolds(1)).toEqual([[1, 500]]);

      receiver.answer = 204;
      const resend = () => call(ctx().app, 'POST', `${hooks}/events/${eventId}/resend`, { token: t.operator });
      const first = await resend();
      expect(first.status).toBe(202);
      expect(first.body.data).toEqual({ eventId, eventType: 'webhook.test' });
      await receiver.until((r) => r.some((e) => e.id === eventId), PROMPTLY_MS);
      expect(await logHolds(2)).toEqual([
        [2, 204],
        [1, 500],
      ]);

      expect((await resend()).status).toBe(202);
      await receiver.until((r) => r.filter((e) => e.id === eventId).length === 2, PROMPTLY_MS);
      expect((await logHolds(3)).map(([attempt]) => attempt)).toEqual([3, 2, 1]);
    });
  },
  { webhooksDeliver: true, webhooksAllowPrivate: true, webhooksRetryBaseMs: RETRY_BASE_MS, webhooksPollMs: 50 },
  { ownDatabase: true },
);
