// @module-tag pooled
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, describeEachStore, type TestApp } from '../helpers/app.js';
import { appSecretToken, createApp, operatorToken, randomKey, seedTenant, selfSignedToken } from '../helpers/seed.js';
import { availableStores } from '../helpers/stores.js';
import { OperatorsService } from '../../src/operator/operators.service.js';

const stores = await availableStores();

describeEachStore('operator accounts, archive and restore (issue 26 item 12)', (ctx) => {
  const newOperator = async (operator: string) => {
    const email = `${randomKey('op')}@example.test`;
    const password = 'first password 123';
    expect(
      (await call(ctx().app, 'POST', '/admin/v1/operators', { token: operator, body: { email, password } })).status,
    ).toBe(201);
    const login = await call(ctx().app, 'POST', '/authentication', { body: { strategy: 'local', email, password } });
    expect(login.status).toBe(200);
    return { email, password, token: login.body.accessToken as string };
  };

  it('GET /admin/v1/operators lists every operator, marks the caller, and never carries a password hash', async () => {
    const admin = await operatorToken(ctx().app);
    const invited = await newOperator(admin);
    const list = await call(ctx().app, 'GET', '/admin/v1/operators', { token: invited.token });
    expect(list.status).toBe(200);
    const mine = list.body.data.find((o: { email: string }) => o.email === invited.email);
    expect(mine).toEqual({ email: invited.email, createdAt: expect.any(String), isCurrent: true });
    expect(list.body.data.filter((o: { isCurrent: boolean }) => o.isCurrent)).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toMatch(/scrypt|hash|password/i);
    expect((await call(ctx().app, 'GET', '/admin/v1/operators?page=2', { token: admin })).body.data.error.code).toBe(
      'INVALID_QUERY_FIELD',
    );
    const t = await seedTenant(ctx().app);
    expect((await call(ctx().app, 'GET', '/admin/v1/operators', { token: t.token })).status).toBe(401);
  });

  it('a password change checks the current password, ends the other sessions, keeps the caller signed in, and is audited', async () => {
    const admin = await operatorToken(ctx().app);
    const op = await newOperator(admin);
    const otherSession = (
      await call(ctx().app, 'POST', '/authentication', {
        body: { strategy: 'local', email: op.email, password: op.password },
      })
    ).body.accessToken;
    const change = (body: unknown, token = op.token) =>
      call(ctx().app, 'POST', '/admin/v1/operators/me/password', { token, body });

    const wrong = await change({ currentPassword: 'not the password', newPassword: 'second password 456' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.data.error.errors).toEqual([
      { field: 'currentPassword', message: expect.any(String), code: 'INVALID_FIELD_VALUE' },
    ]);
    const short = await change({ currentPassword: op.password, newPassword: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.data.error.errors[0].field).toBe('newPassword');
    expect(
      (await change({ currentPassword: op.password, newPassword: op.password })).body.data.error.errors[0].field,
    ).toBe('newPassword');
    expect(
      (await change({ currentPassword: op.password, newPassword: 'second password 456', extra: 1 })).body.data.error
        .code,
    ).toBe('INVALID_FIELD');
    // Nothing changed by the refusals: both sessions still work.
    expect((await call(ctx().app, 'GET', '/admin/v1/operators', { token: otherSession })).status).toBe(200);

    const done = await change({ currentPassword: op.password, newPassword: 'second password 456' });
    expect(done.status).toBe(200);
    expect(done.headers['cache-control']).toBe('no-store');
    expect(done.body.data).toEqual({
      accessToken: expect.any(String),
      expiresAt: expect.any(String),
      user: { email: op.email },
    });
    expect((await call(ctx().app, 'GET', '/admin/v1/operators', { token: otherSession })).status).toBe(401);
    expect((await call(ctx().app, 'GET', '/admin/v1/operators', { token: op.token })).status).toBe(401);
    expect((await call(ctx().app, 'GET', '/admin/v1/operators', { token: done.body.data.accessToken })).status).toBe(
      200,
    );
    expect(
      (
        await call(ctx().app, 'POST', '/authentication', {
          body: { strategy: 'local', email: op.email, password: op.password },
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await call(ctx().app, 'POST', '/authentication', {
          body: { strategy: 'local', email: op.email, password: 'second password 456' },
        })
      ).status,
    ).toBe(200);
    // Other operators are not signed out.
    expect((await call(ctx().app, 'GET', '/admin/v1/operators', { token: admin })).status).toBe(200);

    const audit = await call(ctx().app, 'GET', '/admin/v1/audit?pageSize=200', { token: admin });
    const entry = audit.body.data.entries.find(
      (e: { action: string; operator: string }) => e.action === 'operator.change-password' && e.operator === op.email,
    );
    expect(entry).toMatchObject({ business: null, detail: { email: op.email } });
    expect(JSON.stringify(audit.body)).not.toContain('second password 456');
  });

  it("reset-password (the command line's way back in) ends every session of that operator", async () => {
    const op = await newOperator(await operatorToken(ctx().app));
    expect((await call(ctx().app, 'GET', '/admin/v1/operators', { token: op.token })).status).toBe(200);
    const password = await new OperatorsService(ctx().store, Date.now, ctx().config.passwordHashCost).resetPassword(
      op.email.toUpperCase(),
    );
    expect((await call(ctx().app, 'GET', '/admin/v1/operators', { token: op.token })).status).toBe(401);
    expect(
      (await call(ctx().app, 'POST', '/authentication', { body: { strategy: 'local', email: op.email, password } }))
        .status,
    ).toBe(200);
  });

  it('an archived business answers 403 to its apps, is hidden from the list unless asked, keeps its data, and comes back on restore', async () => {
    const t = await seedTenant(ctx().app);
    const clientId = randomKey('c');
    expect(
      (
        await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, {
          token: t.token,
          body: { clientId, name: 'Kept' },
        })
      ).status,
    ).toBe(201);
    const selfSigned = await selfSignedToken(t);

    const archived = await call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/archive`, { token: t.operator });
    expect(archived.status).toBe(200);
    expect(archived.body.data).toMatchObject({ urlKey: t.urlKey, isArchived: true, archivedAt: expect.any(String) });
    for (const token of [t.token, selfSigned]) {
      const denied = await call(ctx().app, 'GET', `/api/v1/businesses/${t.urlKey}/clients/${clientId}`, { token });
      expect(denied.status).toBe(403);
      expect(denied.body.data.error.code).toBe('PERMISSION_DENIED');
    }
    const again = await call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/archive`, {
      token: t.operator,
      body: {},
    });
    expect(again.body.data.archivedAt).toBe(archived.body.data.archivedAt);

    const listed = async (query = '') =>
      (await call(ctx().app, 'GET', `/admin/v1/businesses${query}`, { token: t.operator })).body.data.map(
        (b: { urlKey: string }) => b.urlKey,
      );
    expect(await listed()).not.toContain(t.urlKey);
    expect(await listed('?includeArchived=true')).toContain(t.urlKey);
    expect(await listed('?includeArchived=false')).not.toContain(t.urlKey);
    expect(
      (await call(ctx().app, 'GET', '/admin/v1/businesses?includeArchived=yes', { token: t.operator })).body.data.error
        .code,
    ).toBe('INVALID_QUERY_VALUE');
    expect(
      (await call(ctx().app, 'GET', '/admin/v1/businesses?archived=1', { token: t.operator })).body.data.error.code,
    ).toBe('INVALID_QUERY_FIELD');
    expect(
      (await call(ctx().app, 'GET', `/admin/v1/businesses/${t.urlKey}`, { token: t.operator })).body.data.isArchived,
    ).toBe(true);
    const apps = (await call(ctx().app, 'GET', '/admin/v1/apps', { token: t.operator })).body.data;
    expect(apps.find((a: { appId: string }) => a.appId === t.appId)).toMatchObject({
      businesses: [t.urlKey],
      archivedBusinesses: [t.urlKey],
    });
    // The urlKey stays taken.
    expect(
      (
        await call(ctx().app, 'POST', '/admin/v1/businesses', {
          token: t.operator,
          body: { name: 'Again', country: 'IN', urlKey: t.urlKey },
        })
      ).body.data.error.code,
    ).toBe('URL_KEY_TAKEN');

    const restored = await call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/restore`, { token: t.operator });
    expect(restored.body.data).toMatchObject({ isArchived: false, archivedAt: null });
    const read = await call(ctx().app, 'GET', `/api/v1/businesses/${t.urlKey}/clients/${clientId}`, { token: t.token });
    expect(read.status).toBe(200);
    expect(read.body.data.name).toBe('Kept');
    expect(
      (await call(ctx().app, 'POST', '/admin/v1/businesses/no-such-biz/archive', { token: t.operator })).body.data.error
        .code,
    ).toBe('BUSINESS_NOT_FOUND');
    expect(
      (
        await call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/archive`, {
          token: t.operator,
          body: { now: true },
        })
      ).body.data.error.code,
    ).toBe('INVALID_FIELD');

    const actions = (
      await call(ctx().app, 'GET', '/admin/v1/audit?pageSize=200', { token: t.operator })
    ).body.data.entries
      .filter((e: { business: string }) => e.business === t.urlKey)
      .map((e: { action: string }) => e.action);
    expect(actions.slice(0, 3)).toEqual(['business.restore', 'business.archive', 'business.archive']);
  });

  it('an archived app gets no token and its tokens stop at once; a restore brings back the same credentials', async () => {
    const t = await seedTenant(ctx().app);
    const selfSigned = await selfSignedToken(t);
    const url = `/api/v1/businesses/${t.urlKey}/pipelines`;
    expect((await call(ctx().app, 'GET', url, { token: selfSigned })).status).toBe(200);

    const archived = await call(ctx().app, 'POST', `/admin/v1/apps/${t.appId}/archive`, { token: t.operator });
    expect(archived.status).toBe(200);
    expect(archived.body.data).toMatchObject({ appId: t.appId, isArchived: true, businesses: [t.urlKey] });
    for (const token of [t.token, selfSigned]) expect((await call(ctx().app, 'GET', url, { token })).status).toBe(401);
    expect(
      (
        await call(ctx().app, 'POST', '/authentication', {
          body: { strategy: 'app-secret', appId: t.appId, appSecret: t.appSecret },
        })
      ).status,
    ).toBe(401);
    expect(
      (await call(ctx().app, 'POST', '/authentication', { body: { strategy: 'app-token' }, token: t.token })).status,
    ).toBe(401);
    const ids = async (query = '') =>
      (await call(ctx().app, 'GET', `/admin/v1/apps${query}`, { token: t.operator })).body.data.map(
        (a: { appId: string }) => a.appId,
      );
    expect(await ids()).not.toContain(t.appId);
    expect(await ids('?includeArchived=true')).toContain(t.appId);

    const restored = await call(ctx().app, 'POST', `/admin/v1/apps/${t.appId}/restore`, { token: t.operator });
    expect(restored.body.data).toMatchObject({ isArchived: false, archivedAt: null });
    for (const token of [t.token, selfSigned]) expect((await call(ctx().app, 'GET', url, { token })).status).toBe(200);
    expect(await appSecretToken(ctx().app, t.appId, t.appSecret)).toEqual(expect.any(String));
    expect(
      (await call(ctx().app, 'POST', '/admin/v1/apps/app_nope/archive', { token: t.operator })).body.data.error.code,
    ).toBe('APP_NOT_FOUND');
    const entries = (
      await call(ctx().app, 'GET', '/admin/v1/audit?pageSize=200', { token: t.operator })
    ).body.data.entries
      .filter((e: { detail: { appId?: string } }) => e.detail?.appId === t.appId)
      .map((e: { action: string }) => e.action);
    expect(entries.slice(0, 2)).toEqual(['app.restore', 'app.archive']);
  });
});

/** A clock that stands still until the test moves it. */
function manualClock() {
  let now = Date.now();
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe.each(stores)('last-used time per app [%s]', (storeName) => {
  const clock = manualClock();
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(storeName, {}, clock);
  });
  afterAll(async () => t?.close());

  const lastUsed = async (operator: string, appId: string) =>
    (await call(t.app, 'GET', '/admin/v1/apps', { token: operator })).body.data.find(
      (a: { appId: string }) => a.appId === appId,
    ).lastUsedAt as string | null;

  it('is null until used, set when a token is issued, and written at most once a minute per app on business requests', async () => {
    const operator = await operatorToken(t.app);
    const fresh = await createApp(t.app, operator);
    expect(await lastUsed(operator, fresh.appId)).toBeNull();

    const tenant = await seedTenant(t.app);
    const issuedAt = clock.now();
    expect(Date.parse((await lastUsed(operator, tenant.appId))!)).toBe(issuedAt);

    const selfSigned = await selfSignedToken(tenant);
    const url = `/api/v1/businesses/${tenant.urlKey}/pipelines`;
    clock.advance(30_000);
    expect((await call(t.app, 'GET', url, { token: selfSigned })).status).toBe(200);
    // Within the minute: no write, the time stays that of the issue.
    expect(Date.parse((await lastUsed(operator, tenant.appId))!)).toBe(issuedAt);

    clock.advance(31_000);
    const usedAt = clock.now();
    expect((await call(t.app, 'GET', url, { token: selfSigned })).status).toBe(200);
    expect(Date.parse((await lastUsed(operator, tenant.appId))!)).toBe(usedAt);
    // A refused request (another business) records nothing.
    clock.advance(61_000);
    const other = await seedTenant(t.app);
    const before = await lastUsed(operator, tenant.appId);
    expect(
      (await call(t.app, 'GET', `/api/v1/businesses/${other.urlKey}/pipelines`, { token: selfSigned })).status,
    ).toBe(403);
    expect(await lastUsed(operator, tenant.appId)).toBe(before);
  });
});
