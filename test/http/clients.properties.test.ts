import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { FUZZ_SEED } from '../helpers/fuzz-seed.js';
import { seedTenant, type Tenant } from '../helpers/seed.js';

const SEED = FUZZ_SEED;
const RUNS = 60;

const text = (max: number) =>
  fc
    .string({ minLength: 1, maxLength: max, unit: 'grapheme' })
    .filter((s) => s.trim().length > 0 && !s.includes('\u0000'));
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const digits = (n: number) =>
  fc.array(fc.constantFrom(...'0123456789'), { minLength: n, maxLength: n }).map((d) => d.join(''));

/** Bodies that satisfy every rule of 2.4-2.7 for an Indian business. */
const validBody = fc
  .record(
    {
      clientId: fc.uuid(),
      name: text(60),
      alias: optional(text(40)),
      email: optional(fc.emailAddress().filter((e) => e.length <= 200)),
      phone: optional(digits(10).map((d) => `+91 ${d.slice(0, 5)}-${d.slice(5)}`)),
      isVendor: optional(fc.boolean()),
      dueInDays: optional(fc.integer({ min: 0, max: 365 })),
      street: optional(text(100)),
      city: optional(text(40)),
      pincode: optional(digits(6)),
      gstin: optional(fc.constantFrom('27AAPFU0939F1ZV', '29ABCDE1234F1Z5', '07AAACR5055K1Z2')),
      vatNumber: optional(text(30)),
      bankAccounts: optional(
        fc.array(fc.record({ bankAccountName: text(30), bankAccountNumber: digits(12), isPrimary: fc.boolean() }), {
          maxLength: 3,
        }),
      ),
      shippingDetails: optional(
        fc.array(
          fc.record(
            { name: text(30), city: optional(text(30)), country: fc.constantFrom('IN', 'AE', 'DE') },
            { requiredKeys: ['name', 'country'] },
          ),
          { maxLength: 3 },
        ),
      ),
    },
    { requiredKeys: ['clientId', 'name'] },
  )
  .map((body) => JSON.parse(JSON.stringify(body)) as Record<string, unknown>);

/** Anything at all: JSON values, and client-shaped objects with wrong types and unknown keys. */
const junkBody = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(
    fc.constantFrom(
      'clientId',
      'name',
      'email',
      'phone',
      'gstin',
      'isClient',
      'bankAccounts',
      'shippingDetails',
      'additionalIds',
      'customFields',
      'country',
      'state',
      'zzz',
      '__proto__',
    ),
    fc.jsonValue(),
  ),
);

describeEachStore('clients: properties through HTTP', (ctx) => {
  let t: Tenant;
  beforeAll(async () => {
    t = await seedTenant(ctx().app, { country: 'IN' });
  });
  const post = (body: unknown) =>
    call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, { token: t.token, body });

  it(`valid bodies always store, read back equal, and retry identically (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(validBody, async (body) => {
        const created = await post(body);
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        const fetched = await call(
          ctx().app,
          'GET',
          `/api/v1/businesses/${t.urlKey}/clients/${encodeURIComponent(body.clientId as string)}`,
          { token: t.token },
        );
        expect(fetched.body.data).toEqual(created.body.data);
        const retry = await post(body);
        expect(retry.status).toBe(201);
        expect(retry.body.data.idempotent).toBe(true);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  }, 120_000);

  it(`random invalid bodies always get a 400 in the section 7 envelope, never a 5xx (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(junkBody, async (body) => {
        const r = await post(body);
        expect(r.status).toBeLessThan(500);
        if (r.status !== 201) {
          expect(r.status).toBe(400);
          expect(r.body).toMatchObject({
            name: 'BadRequest',
            code: 400,
            className: 'bad-request',
            errors: {},
            data: { success: false },
          });
          expect(typeof r.body.data.error.code).toBe('string');
          expect(JSON.stringify(r.body)).not.toMatch(/business_pk|client_pk|url_key|amount_e4|stack|\.ts:/);
        }
      }),
      { seed: SEED, numRuns: RUNS * 3 },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 120_000);
});
