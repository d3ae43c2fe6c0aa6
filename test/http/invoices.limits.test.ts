// @module-tag pooled
import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { buyer, firstError, seedInvoiceTenant, type InvoiceTenant } from '../helpers/invoices.js';
import { randomKey } from '../helpers/seed.js';

/**
 * invoices-interface 7 (limits) and 3.1 (15 significant digits, computed money below 10^12): each limit
 * at its value (accepted) and one past it (refused, with the field named), on both stores.
 */

const item = (over: Record<string, unknown> = {}) => ({ name: 'x', rate: 1, quantity: 1, ...over });
const many = <T>(count: number, make: (i: number) => T) => Array.from({ length: count }, (_, i) => make(i));
const text = (length: number) => 'a'.repeat(length);
const charge = (i: number) => ({ label: `c${i}`, type: 'FIXED_AMOUNT', amount: 1, multiplier: 1 });

describeEachStore('7 limits: at the limit accepted, one past refused', (ctx) => {
  let t: InvoiceTenant;
  let tagId: string;
  beforeAll(async () => {
    t = await seedInvoiceTenant(ctx());
    const saved = await call(ctx().app, 'PUT', `${t.admin}/tags`, {
      token: t.operator,
      body: { tags: [{ name: 'hot' }] },
    });
    tagId = (saved.body.data[0]?.tags ?? saved.body.data.tags)[0].id;
  });
  const post = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    call(ctx().app, 'POST', t.invoices, {
      token: t.token,
      headers,
      body: { billedTo: buyer({ name: `Limits ${randomKey('b')}` }), items: [item()], ...body },
    });
  /** "201", or "400 CODE field" of the first failure. */
  const outcome = async (body: Record<string, unknown>) => {
    const r = await post(body);
    if (r.status === 201) return '201';
    const error = firstError(r);
    return `${r.status} ${error.code} ${error.errors?.[0]?.field ?? ''}`.trim();
  };

  // [limit, accepted body, refused body, expected refusal]
  const cases: [string, Record<string, unknown>, Record<string, unknown>, string][] = [
    ['items 1', { items: [item()] }, { items: [] }, '400 INVALID_ITEMS items'],
    ['items 500', { items: many(500, () => item()) }, { items: many(501, () => item()) }, '400 INVALID_ITEMS items'],
    ['item name 1', { items: [item({ name: 'n' })] }, { items: [item({ name: '  ' })] }, 'items[0].name'],
    ['item name 500', { items: [item({ name: text(500) })] }, { items: [item({ name: text(501) })] }, 'items[0].name'],
    ['quantity > 0', { items: [item({ quantity: 0.000001 })] }, { items: [item({ quantity: 0 })] }, 'quantity'],
    ['quantity ≤ 10^9', { items: [item({ quantity: 1e9 })] }, { items: [item({ quantity: 1e9 + 1 })] }, 'quantity'],
    [
      'quantity 6 decimals',
      { items: [item({ quantity: 1.000001 })] },
      { items: [item({ quantity: 1.0000001 })] },
      'quantity',
    ],
    ['rate ≥ 0', { items: [item({ rate: 0 })] }, { items: [item({ rate: -0.01 })] }, 'rate'],
    [
      'rate < 10^12',
      { items: [item({ rate: 999999999999, quantity: 0.5 })] },
      { items: [item({ rate: 1e12, quantity: 0.5 })] },
      'rate',
    ],
    ['rate 6 decimals', { items: [item({ rate: 1.000001 })] }, { items: [item({ rate: 1.0000001 })] }, 'rate'],
    [
      // rate is the one member whose other limits allow 16 digits (below 10^12, 6 decimals)
      '15 significant digits',
      { items: [item({ rate: 123456789.123456 })] },
      { items: [item({ rate: 1234567890.123456 })] },
      '400 INVALID_FIELD_VALUE items[0].rate',
    ],
    ['invoiceNumber 1', { invoiceNumber: 'N' }, { invoiceNumber: '   ' }, '400 INVALID_FIELD_VALUE invoiceNumber'],
    ['invoiceNumber 64', { invoiceNumber: 'N'.repeat(64) }, { invoiceNumber: 'M'.repeat(65) }, 'invoiceNumber'],
    ['invoiceTitle 500', { invoiceTitle: text(500) }, { invoiceTitle: text(501) }, 'invoiceTitle'],
    ['invoiceSubTitle 500', { invoiceSubTitle: text(500) }, { invoiceSubTitle: text(501) }, 'invoiceSubTitle'],
    [
      'additionalCharges 20',
      { additionalCharges: many(20, charge) },
      { additionalCharges: many(21, charge) },
      '400 INVALID_FIELD_VALUE additionalCharges',
    ],
    [
      'charge label 500',
      { additionalCharges: [{ ...charge(0), label: text(500) }] },
      { additionalCharges: [{ ...charge(0), label: text(501) }] },
      'additionalCharges[0].label',
    ],
    [
      'terms 20 groups',
      { terms: many(20, (i) => ({ label: `g${i}`, terms: ['t'] })) },
      { terms: many(21, (i) => ({ label: `g${i}`, terms: ['t'] })) },
      '400 INVALID_FIELD_VALUE terms',
    ],
    [
      'terms 50 strings',
      { terms: [{ label: 'g', terms: many(50, () => 't') }] },
      { terms: [{ label: 'g', terms: many(51, () => 't') }] },
      'terms[0].terms',
    ],
    [
      'terms label 500',
      { terms: [{ label: text(500), terms: [] }] },
      { terms: [{ label: text(501), terms: [] }] },
      'terms[0].label',
    ],
    [
      'terms string 2,500',
      { terms: [{ label: 'g', terms: [text(2500)] }] },
      { terms: [{ label: 'g', terms: [text(2501)] }] },
      'terms[0].terms',
    ],
    [
      'email.cc 10',
      { email: { to: { email: 'a@example.com' }, cc: many(10, (i) => `c${i}@example.com`) } },
      { email: { to: { email: 'a@example.com' }, cc: many(11, (i) => `c${i}@example.com`) } },
      'email.cc',
    ],
  ];

  it.each(cases)('7 %s', async (_limit, accepted, refused, expected) => {
    expect(await outcome(accepted)).toBe('201');
    const got = await outcome(refused);
    expect(got.startsWith('400 ')).toBe(true);
    expect(got).toContain(expected);
  });

  it('7 tags 50 (a live tag by id, duplicates dropped); 51 refused', async () => {
    const fifty = await post({ tags: many(50, () => tagId) });
    expect([fifty.status, fifty.body.tags]).toEqual([201, [tagId]]);
    expect(await outcome({ tags: many(51, () => tagId) })).toBe('400 INVALID_FIELD_VALUE tags');
    expect(await outcome({ tags: ['no such tag'] })).toBe('400 INVALID_TAG tags');
  });

  it('3.1.4 computed money below 10^12: the last amount below accepted, one minor unit more refused, naming the item or entry', async () => {
    const top = await post({ items: [item({ rate: 999999999999.99, gstRate: 0 })] });
    expect([top.status, top.body.finalTotal?.total]).toEqual([201, 999999999999.99]);
    expect(await outcome({ items: [item({ rate: 999999999999.99, quantity: 1.01 })] })).toBe(
      '400 AMOUNT_TOO_LARGE items[0]',
    );
    expect(await outcome({ items: [item({ rate: 900000000000, gstRate: 18 })] })).toBe('400 AMOUNT_TOO_LARGE items[0]');
    const halves = [item({ rate: 600000000000 }), item({ rate: 600000000000 })];
    expect(await outcome({ items: halves })).toBe('400 AMOUNT_TOO_LARGE items[1]');
    const near = [item({ rate: 999999999999 })];
    const fee = (amount: number) => ({ label: 'fee', type: 'FIXED_AMOUNT', amount, multiplier: 1 });
    expect(await outcome({ items: near, additionalCharges: [fee(0.99)] })).toBe('201');
    expect(await outcome({ items: near, additionalCharges: [fee(1)] })).toBe(
      '400 AMOUNT_TOO_LARGE additionalCharges[0]',
    );
  });

  it('7 payment notes 2,500 and refId 128; any number ≤ 15 significant digits', async () => {
    const invoice = (await post({ items: [item({ rate: 1000 })] })).body;
    const pay = (body: Record<string, unknown>) =>
      call(ctx().app, 'POST', `${t.invoices}/${invoice._id}/payments`, {
        token: t.token,
        body: { amount: 1, ...body },
      });
    expect((await pay({ notes: text(2500), refId: text(128) })).status).toBe(201);
    for (const [body, field] of [
      [{ notes: text(2501) }, 'notes'],
      [{ refId: text(129) }, 'refId'],
    ] as const) {
      const refused = await pay(body);
      expect([refused.status, firstError(refused).errors?.[0]?.field]).toEqual([400, field]);
    }
  });

  it('7 Idempotency-Key 255 printable characters accepted; 256 refused', async () => {
    const accepted = await post({}, { 'idempotency-key': `k${randomKey('x')}`.padEnd(255, 'k') });
    expect(accepted.status).toBe(201);
    const refused = await post({}, { 'idempotency-key': 'k'.repeat(256) });
    expect([refused.status, firstError(refused).code]).toEqual([400, 'INVALID_IDEMPOTENCY_KEY']);
    const control = await post({}, { 'idempotency-key': 'a\u0007b' });
    expect(firstError(control).code).toBe('INVALID_IDEMPOTENCY_KEY');
  });

  it('7 body 1 MiB: a larger body is a 413, nothing stored', async () => {
    const name = `Huge ${randomKey('h')}`;
    const big = { billedTo: buyer({ name }), items: [item()], terms: many(20, () => ({ label: 'g', terms: [] })) };
    const rawBody = JSON.stringify({ ...big, invoiceSubTitle: text(1024 * 1024) });
    const refused = await call(ctx().app, 'POST', t.invoices, {
      token: t.token,
      rawBody,
      headers: { 'content-type': 'application/json' },
    });
    expect(refused.status).toBe(413);
    const page = await call(ctx().app, 'GET', `${t.invoices}?$limit=100`, { token: t.token });
    expect(page.body.data.some((i: { billedTo: { name: string } }) => i.billedTo.name === name)).toBe(false);
  });
});
