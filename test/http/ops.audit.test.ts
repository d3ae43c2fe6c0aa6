import { expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { randomKey, seedTenant } from '../helpers/seed.js';
import { TEST_ADMIN } from '../helpers/stores.js';

describeEachStore('operator audit log', (ctx) => {
  it('every operator action is recorded with who, what, when and which business, newest first, paged', async () => {
    const t = await seedTenant(ctx().app, { customFieldsEnabled: true });
    const clientId = randomKey('aud');
    await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, {
      token: t.token,
      body: { clientId, name: 'Audited' },
    });
    const actions: [string, string, unknown?][] = [
      ['PUT', `/admin/v1/businesses/${t.urlKey}/pipelines`, { pipelines: [], stageReasons: [] }],
      ['PUT', `/admin/v1/businesses/${t.urlKey}/custom-fields`, { fields: [{ name: 'Zone', type: 'TEXT' }] }],
      ['PATCH', `/admin/v1/businesses/${t.urlKey}`, { name: 'Renamed' }],
      ['POST', `/admin/v1/businesses/${t.urlKey}/clients/${clientId}/archive`],
      ['POST', `/admin/v1/apps/${t.appId}/rotate-key`],
    ];
    const before = Date.now();
    for (const [method, url, body] of actions) {
      const r = await call(ctx().app, method as 'PUT', url, { token: t.operator, ...(body !== undefined && { body }) });
      expect(r.status, url).toBeLessThan(300);
    }
    const page = await call(ctx().app, 'GET', '/admin/v1/audit?pageSize=200', { token: t.operator });
    expect(page.status).toBe(200);
    const mine = page.body.data.entries.filter(
      (e: { business: string | null; detail: { appId?: string } }) =>
        e.business === t.urlKey || e.detail?.appId === t.appId,
    );
    const names = mine.map((e: { action: string }) => e.action);
    for (const action of [
      'business.create',
      'app.attach',
      'pipelines.replace',
      'custom-fields.replace',
      'business.update',
      'client.archive',
      'app.rotate-key',
    ]) {
      expect(names, action).toContain(action);
    }
    expect(names.indexOf('app.rotate-key')).toBeLessThan(names.indexOf('pipelines.replace'));
    const latest = mine[0];
    expect(latest.operator).toBe(TEST_ADMIN.email);
    expect(Date.parse(latest.at)).toBeGreaterThanOrEqual(before - 1000);
    // No secret: an action may be named after a password (operator.change-password), never carry one.
    expect(JSON.stringify(page.body)).not.toMatch(
      /secret_hash|password_hash|passwordHash|scrypt\$|privateKeyPem|appSecret|"password"/,
    );
    expect(JSON.stringify(page.body)).not.toContain(TEST_ADMIN.password);

    const paged = await call(ctx().app, 'GET', '/admin/v1/audit?page=1&pageSize=2', { token: t.operator });
    expect(paged.body.data.entries).toHaveLength(2);
    expect(paged.body.data.hasMore).toBe(true);
    expect(
      (await call(ctx().app, 'GET', '/admin/v1/audit?pageSize=0', { token: t.operator })).body.data.error.code,
    ).toBe('INVALID_QUERY_VALUE');
    expect((await call(ctx().app, 'GET', '/admin/v1/audit?limit=5', { token: t.operator })).body.data.error.code).toBe(
      'INVALID_QUERY_FIELD',
    );
    expect((await call(ctx().app, 'GET', '/admin/v1/audit', { token: t.token })).status).toBe(401);
  });
});
