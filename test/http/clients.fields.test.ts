import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { randomKey, seedTenant, type Tenant } from '../helpers/seed.js';

type Body = Record<string, unknown>;
const s = (n: number, ch = 'a') => ch.repeat(n);
/** Lengths count code points: an emoji is one character though two UTF-16 units. */
const emoji = (n: number) => '😀'.repeat(n);

describeEachStore('2.4-2.8 client field rules', (ctx) => {
  let india: Tenant;
  let saudi: Tenant;
  let uae: Tenant;
  beforeAll(async () => {
    [india, saudi, uae] = await Promise.all([
      seedTenant(ctx().app, { country: 'IN' }),
      seedTenant(ctx().app, { country: 'SA' }),
      seedTenant(ctx().app, { country: 'AE' }),
    ]);
  });

  const post = (t: Tenant, body: unknown) =>
    call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, { token: t.token, body });
  const client = (extra: Body = {}): Body => ({ clientId: randomKey('f'), name: 'Field Test', ...extra });

  async function accepted(t: Tenant, extra: Body) {
    const r = await post(t, client(extra));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.data;
  }

  async function rejected(t: Tenant, body: unknown, field: string, code = 'INVALID_FIELD_VALUE') {
    const r = await post(t, body);
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body.data.error.code).toBe(code);
    // A 400 always lists its failures (7): a missing list is a failure of its own, not a pass.
    expect(r.body.data.error.errors, JSON.stringify(r.body)).toBeInstanceOf(Array);
    expect(r.body.data.error.errors[0].field).toBe(field);
    expect(r.body.data.success).toBe(false);
    expect(r.body).toMatchObject({ name: 'BadRequest', code: 400, className: 'bad-request', errors: {} });
    return r.body;
  }

  const limits: [string, number][] = [
    ['name', 500],
    ['alias', 500],
    ['street', 2500],
    ['building', 500],
    ['city', 500],
    ['district', 500],
    ['pincode', 20],
    ['vatNumber', 500],
  ];
  it.each(limits)('%s: at its limit of %i characters accepted, one more rejected', async (field, max) => {
    await accepted(india, { [field]: s(max) });
    await rejected(india, client({ [field]: s(max + 1) }), field);
  });

  it('lengths count code points (emoji), state needs country in the same request', async () => {
    await accepted(india, { alias: emoji(500) });
    await rejected(india, client({ alias: emoji(501) }), 'alias');
    await accepted(india, { state: s(500), country: 'IN' });
    await rejected(india, client({ state: 'Kerala' }), 'state');
  });

  it('clientId: at most 128 after trimming, required, not null', async () => {
    await accepted(india, { clientId: `${randomKey('x')}${s(100)}`.slice(0, 128) });
    await rejected(india, { name: 'x', clientId: s(129) }, 'clientId');
    await rejected(india, { name: 'x' }, 'clientId');
    await rejected(india, { name: 'x', clientId: null }, 'clientId');
    await rejected(india, { name: 'x', clientId: '   ' }, 'clientId');
  });

  it('name: required, not blank after trimming, not null', async () => {
    await rejected(india, { clientId: randomKey() }, 'name');
    await rejected(india, { clientId: randomKey(), name: '   ' }, 'name');
    await rejected(india, { clientId: randomKey(), name: null }, 'name');
  });

  it('phone normalised to + and digits; other characters rejected; at most 30 after normalising', async () => {
    expect((await accepted(india, { phone: '+91 (98) 7654-3210' })).phone).toBe('+919876543210');
    expect((await accepted(india, { phone: '98765 43210' })).phone).toBe('+9876543210');
    await rejected(india, client({ phone: '98765.43210' }), 'phone');
    await rejected(india, client({ phone: 'call me' }), 'phone');
    await accepted(india, { phone: `+${s(29, '1')}` });
    await rejected(india, client({ phone: `+${s(30, '1')}` }), 'phone');
  });

  it('e-mail validated', async () => {
    await accepted(india, { email: 'someone@example.com' });
    for (const email of ['no-at-sign', 'a@', '@b.com', 'a b@c.com']) await rejected(india, client({ email }), 'email');
  });

  it('isClient and isVendor cannot both be false; defaults true/false', async () => {
    const c = await accepted(india, {});
    expect(c.isClient).toBe(true);
    expect(c.isVendor).toBe(false);
    expect(c.phoneShowInInvoice).toBe(false);
    expect(c.emailShowInInvoice).toBe(false);
    await accepted(india, { isClient: false, isVendor: true });
    const both = await post(india, client({ isClient: false, isVendor: false }));
    expect(both.status).toBe(400);
    expect(['isClient', 'isVendor']).toContain(both.body.data.error.errors[0].field);
  });

  it('country: ISO 3166-1 alpha-2, defaults to the business country', async () => {
    expect((await accepted(india, {})).country).toBe('IN');
    expect((await accepted(india, { country: 'DE' })).country).toBe('DE');
    await rejected(india, client({ country: 'XX' }), 'country');
    await rejected(india, client({ country: 'IND' }), 'country');
  });

  it('GSTIN fills panNumber and gstState; a sent value is always kept', async () => {
    const c = await accepted(india, { gstin: '27AAPFU0939F1ZV' });
    expect(c.panNumber).toBe('AAPFU0939F');
    expect(c.gstState).toBe('27');
    const kept = await accepted(india, { gstin: '27AAPFU0939F1ZV', gstState: '29', panNumber: 'ABCPE1234F' });
    expect(kept.gstState).toBe('29');
    expect(kept.panNumber).toBe('ABCPE1234F');
    await rejected(india, client({ gstin: '27AAPFU0939F1Z' }), 'gstin');
    await rejected(india, client({ gstin: 'XXAAPFU0939F1ZV' }), 'gstin');
    await rejected(india, client({ gstState: '123' }), 'gstState');
  });

  it('panNumber: 10 alphanumeric characters, as 2.4 says (not only the AAAAA9999A shape)', async () => {
    for (const pan of ['ABCDE12345', '1234567890', 'abcpe1234f'])
      expect((await accepted(india, { panNumber: pan })).panNumber).toBe(pan);
    for (const pan of ['ABCDE1234', 'ABCDE123456', 'ABCDE-1234'])
      await rejected(india, client({ panNumber: pan }), 'panNumber');
  });

  it('UAE TRN, Malaysian TIN and SST formats', async () => {
    await accepted(uae, { trnNumber: '100123456700003' });
    for (const trn of ['200123456700003', '10012345670000', '1001234567000031'])
      await rejected(uae, client({ trnNumber: trn }), 'trnNumber');
    await accepted(india, { tinNumber: 'C2584563222' });
    await accepted(india, { tinNumber: s(10, 'A') });
    await accepted(india, { tinNumber: s(15, '9') });
    for (const tin of [s(9, 'A'), s(16, 'A'), 'c2584563222'])
      await rejected(india, client({ tinNumber: tin }), 'tinNumber');
    await accepted(india, { sstNumber: 'W10-1808-32000123' });
    await accepted(india, { sstNumber: 'ABC-1808-32000123' });
    for (const sst of ['W10-1808-3200012', 'A1B-1808-32000123', 'ABC18083200012'])
      await rejected(india, client({ sstNumber: sst }), 'sstNumber');
  });

  it('taxPayerType follows the business country; rejected outside IN and AE', async () => {
    await accepted(india, { taxPayerType: 'SEZ' });
    await rejected(india, client({ taxPayerType: 'VATR' }), 'taxPayerType');
    await accepted(uae, { taxPayerType: 'VATR' });
    await rejected(uae, client({ taxPayerType: 'REG' }), 'taxPayerType');
    await rejected(saudi, client({ taxPayerType: 'REG' }), 'taxPayerType');
  });

  it('vatLabel defaults to "VAT Number"; unset scalars are null; unset lists empty', async () => {
    const c = await accepted(india, {});
    expect(c.vatLabel).toBe('VAT Number');
    for (const key of [
      'alias',
      'email',
      'phone',
      'trnNumber',
      'tinNumber',
      'sstNumber',
      'vatNumber',
      'street',
      'gstin',
    ])
      expect(c[key], key).toBeNull();
    expect(c.additionalIds).toEqual([]);
    expect(c.shippingDetails).toEqual([]);
    expect(c.bankAccounts).toEqual([]);
    expect(c.customFields).toEqual({});
    expect(c.source).toBe('API');
    expect(c.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Object.keys(c.balance).sort()).toEqual(
      [
        'creditConsumed',
        'creditNote',
        'currency',
        'debitNote',
        'expenditure',
        'expenditurePayment',
        'invoice',
        'invoicePayment',
        'paymentReceipt',
        'proforma',
        'proformaPayment',
        'salesOrder',
      ].sort(),
    );
    expect(c.balance.currency).toBe('INR');
  });

  it('name errors are INVALID_FIELD: unknown key, server-owned key, wrong type, non-object body', async () => {
    await rejected(india, client({ colour: 'red' }), 'colour', 'INVALID_FIELD');
    for (const owned of ['source', 'createdAt', 'updatedAt', 'balance', 'idempotent'])
      await rejected(india, client({ [owned]: 'x' }), owned, 'INVALID_FIELD');
    await rejected(india, client({ name: 42 }), 'name', 'INVALID_FIELD');
    await rejected(india, client({ isVendor: 'yes' }), 'isVendor', 'INVALID_FIELD');
    await rejected(india, client({ dueInDays: '30' }), 'dueInDays', 'INVALID_FIELD');
    for (const body of [[client()], 'text', 42]) {
      const r = await post(india, body);
      expect(r.status).toBe(400);
      expect(r.body.data.error.code).toBe('INVALID_FIELD');
    }
  });

  it('NUL and lone surrogates are rejected', async () => {
    await rejected(india, client({ alias: 'a\u0000b' }), 'alias');
    const raw = `{"clientId":"${randomKey()}","name":"x","alias":"\\ud800"}`;
    const r = await call(ctx().app, 'POST', `/api/v1/businesses/${india.urlKey}/clients`, {
      token: india.token,
      rawBody: raw,
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(400);
    expect(r.body.data.error.code).toBe('INVALID_FIELD_VALUE');
  });

  it('several failures: every one listed in body order, the first in data.error', async () => {
    const body = await rejected(
      india,
      {
        clientId: randomKey(),
        name: 'x',
        email: 'bad',
        colour: 1,
        phone: 'zz',
        shippingDetails: [{ name: 'a' }, { gstin: 'bad' }],
      },
      'email',
    );
    expect(body.data.error.errors.map((e: { field: string; code: string }) => [e.field, e.code])).toEqual([
      ['email', 'INVALID_FIELD_VALUE'],
      ['colour', 'INVALID_FIELD'],
      ['phone', 'INVALID_FIELD_VALUE'],
      ['shippingDetails[1].gstin', 'INVALID_FIELD_VALUE'],
    ]);
    expect(body.data.error.message).toBe(body.data.error.errors[0].message);
    expect(JSON.stringify(body)).not.toMatch(/business_pk|client_id|_pk\b|select |stack/i);
  });

  it('bank accounts: sortCode only for GB/IE, type, country, currency, lengths', async () => {
    const c = await accepted(india, {
      bankAccounts: [{ bankCountry: 'GB', sortCode: '12-34-56', bankAccountType: 'CURRENT', bankCurrency: 'GBP' }],
    });
    expect(c.bankAccounts[0]).toMatchObject({ sortCode: '12-34-56', isPrimary: false });
    await accepted(india, { bankAccounts: [{ bankCountry: 'IE', sortCode: '123456' }] });
    await rejected(
      india,
      client({ bankAccounts: [{ bankCountry: 'IN', sortCode: '12-34-56' }] }),
      'bankAccounts[0].sortCode',
    );
    await rejected(
      india,
      client({ bankAccounts: [{ bankCountry: 'GB', sortCode: '12-3456' }] }),
      'bankAccounts[0].sortCode',
    );
    await rejected(
      india,
      client({ bankAccounts: [{ bankAccountType: 'CHECKING' }] }),
      'bankAccounts[0].bankAccountType',
    );
    await rejected(india, client({ bankAccounts: [{ bankCurrency: 'ABC' }] }), 'bankAccounts[0].bankCurrency');
    await rejected(india, client({ bankAccounts: [{ bankCountry: 'XX' }] }), 'bankAccounts[0].bankCountry');
    await accepted(india, { bankAccounts: [{ bankAccountNumber: s(2500) }] });
    await rejected(
      india,
      client({ bankAccounts: [{ bankAccountNumber: s(2501) }] }),
      'bankAccounts[0].bankAccountNumber',
    );
    await rejected(india, client({ bankAccounts: [{ iban: s(501) }] }), 'bankAccounts[0].iban');
    await rejected(india, client({ bankAccounts: [{ pin: '1' }] }), 'bankAccounts[0].pin', 'INVALID_FIELD');
  });

  it("shipping details: members validated like the client's, nothing derived, unknown keys by path", async () => {
    const c = await accepted(india, {
      shippingDetails: [{ name: 'Depot', gstin: '27AAPFU0939F1ZV', customHeaders: [{ label: 'Dock', value: '4' }] }],
    });
    expect(c.shippingDetails[0]).toMatchObject({
      name: 'Depot',
      gstin: '27AAPFU0939F1ZV',
      gstState: null,
      additionalIds: [],
    });
    expect(c.shippingDetails[0].panNumber).toBeUndefined();
    await rejected(india, client({ shippingDetails: [{ foo: 1 }] }), 'shippingDetails[0].foo', 'INVALID_FIELD');
    await rejected(india, client({ shippingDetails: [{ country: 'XX' }] }), 'shippingDetails[0].country');
    await rejected(india, client({ shippingDetails: [{ taxId: s(501) }] }), 'shippingDetails[0].taxId');
    await accepted(india, { shippingDetails: [{ taxPayerType: 'anything at all' }] });
    await rejected(
      india,
      client({ shippingDetails: [{ customHeaders: [{ label: s(501), value: 'x' }] }] }),
      'shippingDetails[0].customHeaders[0].label',
    );
    await rejected(
      india,
      client({ shippingDetails: [{ additionalIds: [{ label: 'NAT', value: '1' }] }] }),
      'shippingDetails[0].additionalIds[0].label',
    );
  });

  it('additional ids: codes per country, scope, formats, duplicates, useForEInvoice on the first only', async () => {
    await accepted(india, { additionalIds: [{ label: 'UDY', value: 'UDYAM-MH-01-0000001' }] });
    await rejected(
      india,
      client({ additionalIds: [{ label: 'UDY', value: 'UDYAM-MH-1-0000001' }] }),
      'additionalIds[0].value',
    );
    await rejected(india, client({ additionalIds: [{ label: 'IEC', value: 'ABCDE12345' }] }), 'additionalIds[0].label');
    await accepted(india, {
      isVendor: true,
      additionalIds: [
        { label: 'IEC', value: 'ABCDE12345' },
        { label: 'LUT', value: 'AB123456789012C' },
      ],
    });
    await rejected(
      india,
      client({ isVendor: true, additionalIds: [{ label: 'LUT', value: 'AB12345678901C' }] }),
      'additionalIds[0].value',
    );
    await rejected(india, client({ additionalIds: [{ label: 'NAT', value: '1' }] }), 'additionalIds[0].label');
    await rejected(
      india,
      client({
        additionalIds: [
          { label: 'UDY', value: 'UDYAM-MH-01-0000001' },
          { label: 'UDY', value: 'UDYAM-MH-01-0000002' },
        ],
      }),
      'additionalIds[1].label',
    );
    await rejected(india, client({ additionalIds: [{ label: 'UDY' }] }), 'additionalIds[0].value');
    await rejected(
      saudi,
      client({ isClient: false, isVendor: true, additionalIds: [{ label: 'NAT', value: '1' }] }),
      'additionalIds[0].label',
    );
    const sa = await accepted(saudi, {
      additionalIds: [
        { label: 'NAT', value: '1', useForEInvoice: true },
        { label: 'CRN', value: '2', useForEInvoice: true },
        { label: 'OTH', value: '3' },
      ],
    });
    expect(sa.additionalIds.map((a: { useForEInvoice: boolean }) => a.useForEInvoice)).toEqual([true, false, false]);
    await accepted(saudi, { isClient: false, isVendor: true, additionalIds: [{ label: 'HQ', value: '3000' }] });
    await accepted(india, {
      country: 'MY',
      additionalIds: [
        { label: 'BRN', value: '2020' },
        { label: 'NRIC', value: '1' },
        { label: 'PASSPORT', value: 'P1' },
      ],
    });
    await rejected(
      india,
      client({ country: 'DE', additionalIds: [{ label: 'UDY', value: 'UDYAM-MH-01-0000001' }] }),
      'additionalIds[0].label',
    );
  });

  it('custom fields: not enabled → CUSTOM_FIELDS_NOT_ENABLED', async () => {
    await rejected(india, client({ customFields: { Anything: 1 } }), 'customFields', 'CUSTOM_FIELDS_NOT_ENABLED');
  });

  it('custom fields: by display name, unknown names together, values per type, rename keeps values', async () => {
    const t = await seedTenant(ctx().app, { country: 'IN', customFieldsEnabled: true });
    const fields = [
      { name: 'Region', type: 'TEXT' },
      { name: 'Score', type: 'NUMBER' },
      { name: 'Since', type: 'DATE' },
      { name: 'VIP', type: 'BOOLEAN' },
      { name: 'Tier', type: 'SELECT', options: ['Gold', 'Silver'] },
      { name: 'Old', type: 'TEXT', isArchived: true },
    ];
    const put = await call(ctx().app, 'PUT', `/admin/v1/businesses/${t.urlKey}/custom-fields`, {
      token: t.operator,
      body: { fields },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const values = { Region: 'West', Score: 7.5, Since: '2024-02-29', VIP: true, Tier: 'Gold' };
    const c = await accepted(t, { customFields: values });
    expect(c.customFields).toEqual(values);
    expect(JSON.stringify(c)).not.toContain('cf_');

    const unknown = await rejected(
      t,
      client({ customFields: { Nope: 1, Old: 'x', Region: 'ok' } }),
      'customFields',
      'INVALID_CUSTOM_FIELD',
    );
    expect(unknown.data.error.errors).toHaveLength(1);
    expect(unknown.data.error.message).toMatch(/Nope/);
    expect(unknown.data.error.message).toMatch(/Old/);
    for (const [name, bad] of [
      ['Score', '7'],
      ['Since', '2023-02-29'],
      ['VIP', 'true'],
      ['Tier', 'Bronze'],
      ['Region', 5],
    ] as const) {
      const r = await post(t, client({ customFields: { [name]: bad } }));
      expect(r.status, name).toBe(400);
      expect(r.body.data.error.code).toBe('INVALID_CUSTOM_FIELD_VALUE');
    }

    const defs = put.body.data as { id: string; name: string }[];
    const renamed = defs.map((d) => (d.name === 'Region' ? { ...d, name: 'Zone' } : d));
    expect(
      (
        await call(ctx().app, 'PUT', `/admin/v1/businesses/${t.urlKey}/custom-fields`, {
          token: t.operator,
          body: { fields: renamed },
        })
      ).status,
    ).toBe(200);
    const fetched = await call(ctx().app, 'GET', `/api/v1/businesses/${t.urlKey}/clients/${c.clientId}`, {
      token: t.token,
    });
    expect(fetched.body.data.customFields.Zone).toBe('West');
    expect(fetched.body.data.customFields.Region).toBeUndefined();
    const retry = await post(t, {
      clientId: c.clientId,
      name: 'Field Test',
      customFields: { ...values, Region: undefined, Zone: 'West' },
    });
    expect(retry.status, JSON.stringify(retry.body)).toBe(201);
    expect(retry.body.data.idempotent).toBe(true);
  });

  it('custom fields turned off: the stored values take no part, so a retry without them is identical (issue 27)', async () => {
    const t = await seedTenant(ctx().app, { country: 'IN', customFieldsEnabled: true });
    const put = await call(ctx().app, 'PUT', `/admin/v1/businesses/${t.urlKey}/custom-fields`, {
      token: t.operator,
      body: { fields: [{ name: 'Region', type: 'TEXT' }] },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const c = await accepted(t, { customFields: { Region: 'West' } });
    const off = await call(ctx().app, 'PATCH', `/admin/v1/businesses/${t.urlKey}`, {
      token: t.operator,
      body: { customFieldsEnabled: false },
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    // The same body still names a custom field: refused as a request (400), never a conflict.
    await rejected(
      t,
      { clientId: c.clientId, name: 'Field Test', customFields: { Region: 'West' } },
      'customFields',
      'CUSTOM_FIELDS_NOT_ENABLED',
    );
    const retry = await post(t, { clientId: c.clientId, name: 'Field Test' });
    expect(retry.status, JSON.stringify(retry.body)).toBe(201);
    expect(retry.body.data.idempotent).toBe(true);
    // Any other difference is still a conflict.
    expect((await post(t, { clientId: c.clientId, name: 'Field Test', alias: 'x' })).status).toBe(409);
  });
});

describeEachStore('4.5 get client and 4.6 unsupported operations', (ctx) => {
  let t: Tenant;
  beforeAll(async () => {
    t = await seedTenant(ctx().app);
  });
  const path = (clientId: string) => `/api/v1/businesses/${t.urlKey}/clients/${encodeURIComponent(clientId)}`;

  it('a clientId with spaces, slashes, ?, #, % and unicode is found through its percent-encoded path', async () => {
    for (const clientId of ['with space', 'a/b/c', 'what?x=1', 'hash#tag', '100%', 'ग्राहक-१', '😀'.repeat(128)]) {
      const created = await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, {
        token: t.token,
        body: { clientId, name: 'Odd id' },
      });
      expect(created.status, clientId).toBe(201);
      const fetched = await call(ctx().app, 'GET', path(clientId), { token: t.token });
      expect(fetched.status, clientId).toBe(200);
      expect(fetched.body.data.clientId).toBe(clientId);
    }
  });

  it('any query parameter on get is 400 INVALID_QUERY_FIELD', async () => {
    const r = await call(ctx().app, 'GET', `${path('whatever')}?expand=1`, { token: t.token });
    expect(r.status).toBe(400);
    expect(r.body.data.error.code).toBe('INVALID_QUERY_FIELD');
  });

  it("404 bodies are identical for never-existed, archived, deleted and another business's client", async () => {
    const other = await seedTenant(ctx().app);
    const mk = async (tenant: Tenant) => {
      const clientId = randomKey('g');
      await call(ctx().app, 'POST', `/api/v1/businesses/${tenant.urlKey}/clients`, {
        token: tenant.token,
        body: { clientId, name: 'x' },
      });
      return clientId;
    };
    const archived = await mk(t);
    await call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/clients/${archived}/archive`, {
      token: t.operator,
    });
    const deleted = await mk(t);
    await call(ctx().app, 'DELETE', `/admin/v1/businesses/${t.urlKey}/clients/${deleted}`, { token: t.operator });
    const elsewhere = await mk(other);
    const bodies = await Promise.all(
      ['never-existed', archived, deleted, elsewhere].map((id) => call(ctx().app, 'GET', path(id), { token: t.token })),
    );
    for (const b of bodies) expect(b.status).toBe(404);
    expect(new Set(bodies.map((b) => JSON.stringify(b.body))).size).toBe(1);
    expect(bodies[0]!.body.data.error.code).toBe('CLIENT_NOT_FOUND');
  });

  it('405 with the status alone for GET on the collection and PATCH/PUT/DELETE on a client, before auth', async () => {
    for (const [method, url] of [
      ['GET', `/api/v1/businesses/${t.urlKey}/clients`],
      ['PATCH', path('x')],
      ['PUT', path('x')],
      ['DELETE', path('x')],
    ] as const) {
      const r = await call(ctx().app, method, url);
      expect(r.status, `${method} ${url}`).toBe(405);
      expect(r.body.data?.error?.code).toBeUndefined();
    }
  });

  it('operator: dashboard-created clients have their own source, no clientId, and never merge', async () => {
    const r = await call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/clients`, {
      token: t.operator,
      body: { name: 'Walk-in', source: 'INVOICE', email: 'walk@in.example' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.data).toMatchObject({ clientId: null, source: 'INVOICE', name: 'Walk-in' });
    const bad = await call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/clients`, {
      token: t.operator,
      body: { name: 'x', source: 'API' },
    });
    expect(bad.status).toBe(400);
    const withId = await call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/clients`, {
      token: t.operator,
      body: { name: 'x', source: 'INVOICE', clientId: 'c1' },
    });
    expect(withId.status).toBe(400);
  });

  it('operator: documents add to balance members; balance.currency is the business currency', async () => {
    const clientId = randomKey('bal');
    await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, {
      token: t.token,
      body: { clientId, name: 'Bal' },
    });
    const add = (type: string, amount: unknown) =>
      call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/clients/${clientId}/documents`, {
        token: t.operator,
        body: { type, amount },
      });
    expect((await add('invoice', 100.1)).status).toBe(201);
    expect((await add('invoice', 0.2)).status).toBe(201);
    expect((await add('paymentReceipt', 50)).status).toBe(201);
    expect((await add('bogus', 1)).status).toBe(400);
    expect((await add('invoice', '1')).status).toBe(400);
    const fetched = await call(ctx().app, 'GET', path(clientId), { token: t.token });
    expect(fetched.body.data.balance).toMatchObject({
      invoice: 100.3,
      paymentReceipt: 50,
      proforma: 0,
      currency: 'INR',
    });
    const op = await call(ctx().app, 'GET', `/admin/v1/businesses/${t.urlKey}/clients/${clientId}`, {
      token: t.operator,
    });
    expect(op.body.data.status).toBe('active');
  });

  it('operator: a document amount is rounded to 4 decimals from its exact decimal, half away from zero', async () => {
    const clientId = randomKey('bal');
    await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, {
      token: t.token,
      body: { clientId, name: 'Bal' },
    });
    const add = (type: string, amount: number) =>
      call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/clients/${clientId}/documents`, {
        token: t.operator,
        body: { type, amount },
      });
    // In binary floating point 1.00005 * 10000 is 10000.499999999998 and -0.00005 * 10000 rounds to -0.
    expect((await add('invoice', 1.00005)).body.data.balance.invoice).toBe(1.0001);
    expect((await add('proforma', -0.00005)).body.data.balance.proforma).toBe(-0.0001);
  });
});
