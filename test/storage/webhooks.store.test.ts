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
    await t.store.accounts.createBusiness({ urlKey, name: urlKey, country: 'IN', currency: 'INR', customFieldsEnabled: false, timeZone: null, createdAt: 1, updatedAt: 1 });
    await t.store.webhooks.create(urlKey, {
      id: randomKey('ep'), url: 'https://hooks.example.com/', description: null, eventTypes: ['client.created'], enabled: true, disabledReason: null,
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', previousSecret: null, previousSecretUntil: null, createdAt: 1, updatedAt: 1,
    });
  });
  afterAll(async () => {
    await t.close();
    await own?.drop();
  });

  it('claims the oldest pending event of each resource only, skips what is not due, and leases what it claims', async () => {
    const [endpoint] = (await t.store.webhooks.subscriptions(urlKey)).endpoints;
    const row = (n: number, resource: string, at: number) => ({
      messageId: `msg_${urlKey}_${n}`, eventType: 'client.created', resourceKey: `client:${resource}`, payload: '{}', createdAt: at, endpointPk: endpoint!.pk,
    });
    const endpointId = (await t.store.webhooks.list(urlKey))[0]!.id;
    for (const r of [row(1, 'a', 10), row(2, 'a', 11), row(3, 'b', 12), row(4, 'c', 5_000)]) {
      await t.store.webhooks.enqueue(urlKey, endpointId, r);
    }
    const first = await t.store.webhooks.claim(100, 10, 1_000);
    const mine = first.filter((d) => d.messageId.startsWith(`msg_${urlKey}`)).map((d) => d.messageId);
    expect(mine).toEqual([`msg_${urlKey}_1`, `msg_${urlKey}_3`]);
    // Leased: not claimed again before the lease ends; the second event of `a` waits for the first.
    expect((await t.store.webhooks.claim(500, 10, 1_000)).filter((d) => d.messageId.startsWith(`msg_${urlKey}`))).toEqual([]);
    const one = first.find((d) => d.messageId === `msg_${urlKey}_1`)!;
    expect(one.attempt).toBe(1);
    await t.store.webhooks.finish(one, { at: 600, statusCode: 204, durationMs: 3, error: null }, 'delivered');
    const next = (await t.store.webhooks.claim(700, 10, 2_000)).filter((d) => d.messageId.startsWith(`msg_${urlKey}`)).map((d) => d.messageId);
    expect(next).toEqual([`msg_${urlKey}_2`]);
  });

  it('prune drops delivered events and old log entries, never pending ones', async () => {
    const endpointId = (await t.store.webhooks.list(urlKey))[0]!.id;
    await t.store.webhooks.prune(1_000_000);
    expect(await t.store.webhooks.findEvent(urlKey, endpointId, `msg_${urlKey}_1`)).toBeUndefined();
    expect(await t.store.webhooks.findEvent(urlKey, endpointId, `msg_${urlKey}_2`)).toBeDefined();
    expect(await t.store.webhooks.listAttempts(urlKey, endpointId, 10, 0)).toEqual([]);
  });
});
