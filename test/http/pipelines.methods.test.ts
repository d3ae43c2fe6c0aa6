import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { seedTenant, type Tenant } from '../helpers/seed.js';

describeEachStore('4.3 unsupported pipeline operations', (ctx) => {
  let t: Tenant;
  beforeAll(async () => {
    t = await seedTenant(ctx().app);
  });
  const collection = () => `/api/v1/businesses/${t.urlKey}/pipelines`;
  const one = () => `${collection()}/pl_anything`;

  const cases: [string, () => string][] = [
    ['POST', collection],
    ['GET', one],
    ['PATCH', one],
    ['PUT', one],
    ['DELETE', one],
  ];

  it.each(cases)('%s gives 405 METHOD_NOT_ALLOWED in the section 7 envelope', async (method, path) => {
    const r = await call(ctx().app, method as never, path(), {
      token: t.token,
      ...(method !== 'GET' && method !== 'DELETE' && { body: {} }),
    });
    expect(r.status).toBe(405);
    expect(r.body).toEqual({
      name: 'MethodNotAllowed',
      message: expect.any(String),
      code: 405,
      className: 'method-not-allowed',
      data: { success: false, error: { message: expect.any(String), code: 'METHOD_NOT_ALLOWED', status: 405 } },
      errors: {},
    });
  });

  it.each(cases)(
    "decisions: %s answers 405 before auth (no token, another business's token, unknown business)",
    async (method, path) => {
      const other = await seedTenant(ctx().app);
      for (const options of [{}, { token: other.token }]) {
        expect((await call(ctx().app, method as never, path(), options)).status).toBe(405);
      }
      const unknownBusiness = path().replace(t.urlKey, 'no-such-business');
      expect((await call(ctx().app, method as never, unknownBusiness)).status).toBe(405);
    },
  );

  it('405 on the collection names what is allowed', async () => {
    const r = await call(ctx().app, 'POST', collection(), { token: t.token, body: {} });
    expect(r.headers.allow).toBe('GET, HEAD');
  });

  it('the other write methods on the collection, and POST on one pipeline, are 405 too', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      expect((await call(ctx().app, method, collection(), { token: t.token })).status).toBe(405);
    }
    expect((await call(ctx().app, 'POST', one(), { token: t.token })).status).toBe(405);
  });
});
