import { beforeAll, describe, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { seedTenant, type Tenant } from '../helpers/seed.js';

// Operator API rules that keep an operator from breaking integrations by accident (issue 26,
// docs/decisions.md "Operator safeguards (issue 26)"): a field's type is fixed while values exist, the primary
// pipeline stays live, and archive is the reversible one of a client's two removals.
describeEachStore('operator safeguards', (ctx) => {
  describe('custom field type changes', () => {
    let t: Tenant;
    const path = () => `/admin/v1/businesses/${t.urlKey}/custom-fields`;
    const put = (fields: unknown[]) => call(ctx().app, 'PUT', path(), { token: t.operator, body: { fields } });
    const createClient = (clientId: string, customFields: Record<string, unknown>) =>
      call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, {
        token: t.token,
        body: { clientId, name: clientId, customFields },
      });
    let defs: { id: string; name: string; type: string }[];

    beforeAll(async () => {
      t = await seedTenant(ctx().app, { customFieldsEnabled: true });
      const r = await put([
        { name: 'Score', type: 'NUMBER' },
        { name: 'Since', type: 'DATE' },
        { name: 'Notes', type: 'TEXT' },
      ]);
      expect(r.status).toBe(200);
      defs = r.body.data;
      for (const id of ['c1', 'c2', 'c3']) expect((await createClient(id, { Score: 7 })).status).toBe(201);
      expect((await createClient('c4', { Since: '2024-01-31' })).status).toBe(201);
    });

    it("a saved field's type cannot change while clients hold values: 400 on fields[i].type naming how many, nothing stored", async () => {
      const changed = defs.map((d) => (d.name === 'Score' ? { ...d, type: 'DATE' } : d));
      const r = await put(changed);
      expect(r.status).toBe(400);
      expect(r.body.data.error.errors).toEqual([
        {
          field: 'fields[0].type',
          code: 'INVALID_FIELD_VALUE',
          message: expect.stringContaining('3 clients hold values'),
        },
      ]);
      expect(r.body.data.error.message).toContain('from NUMBER to DATE');
      expect(r.body.data.error.message).not.toMatch(/cf_/);
      const stored = await call(ctx().app, 'GET', path(), { token: t.operator });
      expect(stored.body.data.find((d: any) => d.name === 'Score').type).toBe('NUMBER');
      const read = await call(ctx().app, 'GET', `/api/v1/businesses/${t.urlKey}/clients/c1`, { token: t.token });
      expect(read.body.data.customFields).toEqual({ Score: 7 });
    });

    it('one client is named in the singular; archived clients count, deleted ones do not', async () => {
      const toText = defs.map((d) => (d.name === 'Since' ? { ...d, type: 'TEXT' } : d));
      const one = await put(toText);
      expect(one.status).toBe(400);
      expect(one.body.data.error.errors[0]).toMatchObject({
        field: 'fields[1].type',
        message: expect.stringContaining('1 client holds a value'),
      });
      expect(
        (await call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/clients/c4/archive`, { token: t.operator }))
          .status,
      ).toBe(200);
      expect((await put(toText)).status).toBe(400);
      expect(
        (await call(ctx().app, 'DELETE', `/admin/v1/businesses/${t.urlKey}/clients/c4`, { token: t.operator })).status,
      ).toBe(200);
      const after = await put(toText);
      expect(after.status, JSON.stringify(after.body)).toBe(200);
      expect(after.body.data[1]).toMatchObject({ id: defs[1]!.id, type: 'TEXT' });
    });

    it('a field with no stored value may change type, and renames keep working', async () => {
      const r = await put(
        defs.map((d) =>
          d.name === 'Notes'
            ? { ...d, name: 'Remarks', type: 'BOOLEAN' }
            : d.name === 'Since'
              ? { ...d, type: 'TEXT' }
              : d,
        ),
      );
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.data[2]).toMatchObject({ id: defs[2]!.id, name: 'Remarks', type: 'BOOLEAN' });
    });
  });

  describe('the primary pipeline', () => {
    let t: Tenant;
    const path = () => `/admin/v1/businesses/${t.urlKey}/pipelines`;
    const put = (body: unknown) => call(ctx().app, 'PUT', path(), { token: t.operator, body });
    beforeAll(async () => {
      t = await seedTenant(ctx().app);
    });

    it('cannot be archived: 400 on pipelines[i].isArchived saying what to do, the stored configuration unchanged', async () => {
      const saved = await put({
        pipelines: [
          { name: 'Sales', isPrimary: true, stages: [{ name: 'New', state: 'NEW' }] },
          { name: 'Partners', stages: [] },
        ],
        stageReasons: [],
      });
      expect(saved.status).toBe(200);
      const [sales, partners] = saved.body.data[0].pipelines;
      const r = await put({ pipelines: [{ ...sales, isArchived: true }, partners], stageReasons: [] });
      expect(r.status).toBe(400);
      expect(r.body.data.error.errors).toEqual([
        {
          field: 'pipelines[0].isArchived',
          code: 'INVALID_FIELD_VALUE',
          message: expect.stringContaining('make another pipeline primary first'),
        },
      ]);
      const live = await call(ctx().app, 'GET', `/api/v1/businesses/${t.urlKey}/pipelines`, { token: t.token });
      expect(live.body.data[0].pipelines.map((p: any) => [p.name, p.isPrimary])).toEqual([
        ['Sales', true],
        ['Partners', false],
      ]);
    });

    it('moving primary to another pipeline in the same save lets the old one be archived', async () => {
      const [sales, partners] = (await call(ctx().app, 'GET', path(), { token: t.operator })).body.data[0].pipelines;
      const r = await put({
        pipelines: [
          { ...sales, isPrimary: false, isArchived: true },
          { ...partners, isPrimary: true },
        ],
        stageReasons: [],
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.data[0].pipelines.map((p: any) => [p.isPrimary, p.isArchived])).toEqual([
        [false, true],
        [true, false],
      ]);
    });
  });

  it('operator body errors name their field: a blank business or app name is "name must not be empty after trimming"', async () => {
    const t = await seedTenant(ctx().app);
    for (const [path, body] of [
      ['/admin/v1/businesses', { name: '  ', country: 'IN' }],
      ['/admin/v1/apps', { name: '  ' }],
    ] as const) {
      const r = await call(ctx().app, 'POST', path, { token: t.operator, body });
      expect(r.status, path).toBe(400);
      expect(r.body.data.error.errors, path).toEqual([
        { field: 'name', code: 'INVALID_FIELD_VALUE', message: 'name must not be empty after trimming' },
      ]);
    }
  });

  describe('client archive, delete and restore', () => {
    let t: Tenant;
    const admin = (clientId: string, suffix = '') => `/admin/v1/businesses/${t.urlKey}/clients/${clientId}${suffix}`;
    const publicGet = (clientId: string) =>
      call(ctx().app, 'GET', `/api/v1/businesses/${t.urlKey}/clients/${clientId}`, { token: t.token });
    beforeAll(async () => {
      t = await seedTenant(ctx().app);
      for (const clientId of ['keep', 'gone']) {
        expect(
          (
            await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, {
              token: t.token,
              body: { clientId, name: clientId },
            })
          ).status,
        ).toBe(201);
      }
    });

    it('restore brings an archived client back to the public get, and is recorded in the audit log', async () => {
      expect((await call(ctx().app, 'POST', admin('keep', '/archive'), { token: t.operator })).status).toBe(200);
      expect((await publicGet('keep')).status).toBe(404);
      const r = await call(ctx().app, 'POST', admin('keep', '/restore'), { token: t.operator });
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual({ clientId: 'keep', status: 'active' });
      expect((await publicGet('keep')).status).toBe(200);
      expect((await call(ctx().app, 'POST', admin('keep', '/restore'), { token: t.operator })).body.data.status).toBe(
        'active',
      );
      const entries = await ctx().store.data.listAudit(1000, 0);
      expect(entries).toContainEqual(
        expect.objectContaining({ action: 'client.restore', businessUrlKey: t.urlKey, detail: { clientId: 'keep' } }),
      );
    });

    it('a deleted client cannot be restored: 409 CLIENT_DELETED, still deleted', async () => {
      expect((await call(ctx().app, 'DELETE', admin('gone'), { token: t.operator })).status).toBe(200);
      const r = await call(ctx().app, 'POST', admin('gone', '/restore'), { token: t.operator });
      expect(r.status).toBe(409);
      expect(r.body.data.error.code).toBe('CLIENT_DELETED');
      expect(r.body.data.error.message).toContain('deletion is final');
      expect((await call(ctx().app, 'GET', admin('gone'), { token: t.operator })).body.data.status).toBe('deleted');
    });

    it('restore: unknown client 404, a body 400, no operator session 401', async () => {
      expect(
        (await call(ctx().app, 'POST', admin('nobody', '/restore'), { token: t.operator })).body.data.error.code,
      ).toBe('CLIENT_NOT_FOUND');
      expect(
        (await call(ctx().app, 'POST', admin('keep', '/restore'), { token: t.operator, body: { status: 'active' } }))
          .status,
      ).toBe(400);
      expect((await call(ctx().app, 'POST', admin('keep', '/restore'), { token: t.token })).status).toBe(401);
    });
  });
});
