// @module-tag pooled
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { randomKey } from '../helpers/seed.js';
import { availableStores, privatePostgresDatabase, type PrivateDatabase } from '../helpers/stores.js';

const stores = await availableStores();

describe.each(stores)('webhooks store [%s]', (storeName) => {
  let t: TestApp;
  let own: PrivateDatabase | undefined;
  const urlKey = randomKey('ws');
  beforeAll(async () => {
    // A database of its own: claims reach every due event of the database, and other suites' events are not ours to take.
    if (storeName === 'postgres') own = await privatePostgresDatabase('crmkit_ws');
    t = await createTestApp(storeName, { webhooksDeliver: false, ...(own && { databaseUrl: own.url }) });
    await t.store.accounts.createBusiness({
      urlKey,
      name: urlKey,
      country: 'IN',
      currency: 'INR',
      customFieldsEnabled: false,
      timeZone: null,
      createdAt: 1,
      updatedAt: 1,
    });
    await t.store.webhooks.create(urlKey, {
      id: randomKey('ep'),
      url: 'https://hooks.example.com/',
      description: null,
      eventTypes: ['client.created'],
      enabled: true,
      disabledReason: null,
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      previousSecret: null,
      previousSecretUntil: null,
      createdAt: 1,
      updatedAt: 1,
    });
  });
  afterAll(async () => {
    await t.close();
    await own?.drop();
  });

  it('claims the oldest pending event of each resource only, new ones at once, attempted ones when due, and leases what it claims', async () => {
    const [endpoint] = (await t.store.webhooks.subscriptions(urlKey)).endpoints;
    const row = (n: number, resource: string, at: number) => ({
      messageId: `msg_${urlKey}_${n}`,
      eventType: 'client.created',
      resourceKey: `client:${resource}`,
      payload: '{}',
      createdAt: at,
      endpointPk: endpoint!.pk,
    });
    const endpointId = (await t.store.webhooks.list(urlKey))[0]!.id;
    for (const r of [row(1, 'a', 10), row(2, 'a', 11), row(3, 'b', 12), row(4, 'c', 5_000)]) {
      await t.store.webhooks.enqueue(urlKey, endpointId, r);
    }
    // A new event is sent at once, whatever its time says (another process's clock may run ahead).
    const first = await t.store.webhooks.claim(100, 10, 1_000);
    const mine = first.filter((d) => d.messageId.startsWith(`msg_${urlKey}`)).map((d) => d.messageId);
    expect(mine).toEqual([`msg_${urlKey}_1`, `msg_${urlKey}_3`, `msg_${urlKey}_4`]);
    // Leased: not claimed again before the lease ends; the second event of `a` waits for the first.
    expect(
      (await t.store.webhooks.claim(500, 10, 1_000)).filter((d) => d.messageId.startsWith(`msg_${urlKey}`)),
    ).toEqual([]);
    const one = first.find((d) => d.messageId === `msg_${urlKey}_1`)!;
    expect(one.attempt).toBe(1);
    await t.store.webhooks.finish(one, { at: 600, statusCode: 204, durationMs: 3, error: null }, 'delivered');
    // `c` failed: due again at 1,500, not before; `b` is still leased.
    await t.store.webhooks.finish(
      first.find((d) => d.messageId === `msg_${urlKey}_4`)!,
      { at: 600, statusCode: 500, durationMs: 3, error: null },
      { retryAt: 1_500 },
    );
    // A new event of `c` waits behind the attempted one.
    await t.store.webhooks.enqueue(urlKey, endpointId, row(5, 'c', 650));
    const next = (await t.store.webhooks.claim(700, 10, 2_000))
      .filter((d) => d.messageId.startsWith(`msg_${urlKey}`))
      .map((d) => d.messageId);
    expect(next).toEqual([`msg_${urlKey}_2`]);
    const retried = (await t.store.webhooks.claim(1_500, 10, 3_000)).filter((d) =>
      d.messageId.startsWith(`msg_${urlKey}`),
    );
    expect(retried.map((d) => [d.messageId, d.attempt])).toEqual([
      [`msg_${urlKey}_3`, 2],
      [`msg_${urlKey}_4`, 2],
    ]);
    await t.store.webhooks.finish(retried[1]!, { at: 1_600, statusCode: 204, durationMs: 3, error: null }, 'delivered');
    expect(
      (await t.store.webhooks.claim(1_700, 10, 3_000))
        .map((d) => d.messageId)
        .filter((id) => id.startsWith(`msg_${urlKey}`)),
    ).toEqual([`msg_${urlKey}_5`]);
  });

  it("a burst of one resource's events holds the others back for one claim at most", async () => {
    const [endpoint] = (await t.store.webhooks.subscriptions(urlKey)).endpoints;
    const endpointId = (await t.store.webhooks.list(urlKey))[0]!.id;
    const row = (n: number, resource: string) => ({
      messageId: `msg_${urlKey}_burst_${resource}${n}`,
      eventType: 'client.created',
      resourceKey: `client:burst-${resource}`,
      payload: '{}',
      createdAt: 10_000,
      endpointPk: endpoint!.pk,
    });
    for (let n = 1; n <= 12; n++) await t.store.webhooks.enqueue(urlKey, endpointId, row(n, 'x'));
    await t.store.webhooks.enqueue(urlKey, endpointId, row(1, 'y'));
    // At 1,800 the events the test above left in flight are not due again yet.
    const claimed = async () =>
      (await t.store.webhooks.claim(1_800, 2, 20_000)).map((d) => d.messageId).filter((id) => id.includes('_burst_'));
    // The first claim looks at a prefix of the new events (a few times its room): only x's first is there.
    expect(await claimed()).toEqual([`msg_${urlKey}_burst_x1`]);
    // x's first is in flight now: the rest of x wait behind it, and the next claim reaches y.
    expect(await claimed()).toEqual([`msg_${urlKey}_burst_y1`]);
    expect(await claimed()).toEqual([]);
  });

  it('prune drops delivered events and old log entries, never pending ones', async () => {
    const endpointId = (await t.store.webhooks.list(urlKey))[0]!.id;
    await t.store.webhooks.prune(1_000_000);
    expect(await t.store.webhooks.findEvent(urlKey, endpointId, `msg_${urlKey}_1`)).toBeUndefined();
    expect(await t.store.webhooks.findEvent(urlKey, endpointId, `msg_${urlKey}_2`)).toBeDefined();
    expect(await t.store.webhooks.listAttempts(urlKey, endpointId, 10, 0)).toEqual([]);
  });

  it('resendNow: the next attempt of the event, due at once; an attempt in flight is not doubled', async () => {
    const endpointId = (await t.store.webhooks.list(urlKey))[0]!.id;
    const messageId = `msg_${urlKey}_resend`;
    await t.store.webhooks.enqueue(urlKey, endpointId, {
      messageId,
      eventType: 'client.created',
      resourceKey: 'client:resend',
      payload: '{}',
      createdAt: 2_000_000,
    });
    const claim = async (now: number) =>
      (await t.store.webhooks.claim(now, 100, now + 100_000)).filter((d) => d.messageId === messageId);
    const sent = (await claim(2_000_000))[0]!;
    expect(sent.attempt).toBe(1);
    // In flight: the resend leaves it to the attempt under way.
    expect(await t.store.webhooks.resendNow(urlKey, endpointId, messageId, 2_000_010)).toEqual({
      eventType: 'client.created',
    });
    expect(await claim(2_000_020)).toEqual([]);
    const failed = { at: 2_000_030, statusCode: 500, durationMs: 1, error: null };
    await t.store.webhooks.finish(sent, failed, { retryAt: 9_000_000 });
    // Waiting for its retry: due now, as attempt 2.
    await t.store.webhooks.resendNow(urlKey, endpointId, messageId, 2_000_040);
    const retried = (await claim(2_000_050))[0]!;
    expect(retried.attempt).toBe(2);
    await t.store.webhooks.finish(retried, { ...failed, statusCode: 204 }, 'delivered');
    // Delivered: pending again, due now, as attempt 3.
    await t.store.webhooks.resendNow(urlKey, endpointId, messageId, 2_000_060);
    expect((await claim(2_000_070)).map((d) => d.attempt)).toEqual([3]);
    expect(await t.store.webhooks.resendNow(urlKey, endpointId, 'msg_none', 2_000_080)).toBeUndefined();
  });
});
