// @module-tag dates
import pg from 'pg';
import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { buyer, createInvoice, firstError, seedInvoiceTenant, type InvoiceTenant } from '../helpers/invoices.js';
import { POSTGRES_URL, sessionUrlOf } from '../helpers/stores.js';

describeEachStore('4.3 GET invoices: find', (ctx) => {
  let t: InvoiceTenant;
  const made: any[] = [];
  beforeAll(async () => {
    t = await seedInvoiceTenant(ctx());
    for (const [number, date, name] of [
      ['B-2', '2026-01-10', 'Uno'],
      ['a-1', '2026-01-05', 'Dos'],
      ['C-3', '2026-01-20', 'Uno'],
    ] as const) {
      made.push(await createInvoice(ctx(), t, { invoiceNumber: number, invoiceDate: date, billedTo: buyer({ name }) }));
    }
    const canceled = await call(ctx().app, 'POST', `${t.invoices}/${made[1]._id}/cancel`, { token: t.token });
    expect(canceled.status).toBe(200);
  });
  const find = (query = '') => call(ctx().app, 'GET', `${t.invoices}${query}`, { token: t.token });
  const numbers = (r: { body: any }) => r.body.data.map((i: any) => i.invoiceNumber);

  it('default: createdAt descending, {total, limit, skip, data}, each entry the invoice as GET answers it', async () => {
    const r = await find();
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ total: 3, limit: 10, skip: 0 });
    expect(numbers(r)).toEqual(['C-3', 'a-1', 'B-2']);
    const one = await call(ctx().app, 'GET', `${t.invoices}/${made[0]._id}`, { token: t.token });
    expect(r.body.data[2]).toEqual(one.body);
  });

  it('paging: $limit capped at 100, 0 answers the total alone; $skip', async () => {
    expect((await find('?$limit=500')).body.limit).toBe(100);
    const zero = await find('?$limit=0');
    expect([zero.body.total, zero.body.data]).toEqual([3, []]);
    expect(numbers(await find('?$limit=1&$skip=1'))).toEqual(['a-1']);
    expect(firstError(await find('?$limit=-1')).code).toBe('INVALID_PAGINATION_LIMIT');
    expect(firstError(await find('?$skip=x')).code).toBe('INVALID_PAGINATION_SKIP');
  });

  it('$sort: invoiceNumber by code point, invoiceDate; other fields and directions refused', async () => {
    expect(numbers(await find('?$sort[invoiceNumber]=1'))).toEqual(['B-2', 'C-3', 'a-1']);
    expect(numbers(await find('?$sort[invoiceDate]=-1'))).toEqual(['C-3', 'B-2', 'a-1']);
    expect(firstError(await find('?$sort[total]=1')).code).toBe('INVALID_QUERY_FIELD');
    expect(firstError(await find('?$sort[createdAt]=up')).code).toBe('INVALID_QUERY_VALUE');
  });

  it('filters: client, status (CANCELLED read as CANCELED), invoiceNumber, invoiceDate bounds', async () => {
    expect(numbers(await find(`?client=${made[0].client}`))).toEqual(['C-3', 'B-2']);
    expect(numbers(await find('?status=CANCELLED'))).toEqual(['a-1']);
    expect(numbers(await find('?status=UNPAID,PAID'))).toEqual(['C-3', 'B-2']);
    expect(numbers(await find('?invoiceNumber=B-2'))).toEqual(['B-2']);
    expect(numbers(await find('?invoiceDate[$gte]=2026-01-06&invoiceDate[$lte]=2026-01-10'))).toEqual(['B-2']);
    expect(firstError(await find('?status=OPEN')).code).toBe('INVALID_QUERY_VALUE');
    expect(firstError(await find('?invoiceDate[$gte]=2026-02-01&invoiceDate[$lte]=2026-01-01')).code).toBe(
      'INVALID_QUERY_VALUE',
    );
  });

  it('other parameters INVALID_QUERY_FIELD; other operators or a repeated parameter INVALID_QUERY_VALUE', async () => {
    expect(firstError(await find('?$select=total')).code).toBe('INVALID_QUERY_FIELD');
    expect(firstError(await find('?status[$ne]=PAID')).code).toBe('INVALID_QUERY_VALUE');
    expect(firstError(await find('?status=PAID&status=UNPAID')).code).toBe('INVALID_QUERY_VALUE');
  });

  it("the app's page, composed around the stored texts, is byte for byte the operator list's page object", {
    timeout: 120_000,
  }, async () => {
    // A sync page on PostgreSQL stops before transactions still open anywhere in the cluster: another test
    // file's bulk insert (the plan test's 200,000 invoices in one transaction) held every page of this one
    // empty for seconds. It is read again, up to a minute, until it holds a page and its cursor.
    let first = (await find('?updatedAtFrom=2020-01-01&$limit=2')).body;
    for (let attempt = 1; first.nextCursor === null && attempt < 600; attempt++) {
      await new Promise((r) => setTimeout(r, 100));
      first = (await find('?updatedAtFrom=2020-01-01&$limit=2')).body;
    }
    expect(first.nextCursor).not.toBeNull();
    for (const query of [
      '',
      '?$limit=0',
      '?$limit=2&$skip=1',
      '?status=CANCELED',
      '?client=nobody',
      '?$sort[invoiceNumber]=1',
      '?updatedAtFrom=2020-01-01&$limit=2',
      `?after=${first.nextCursor}&$limit=2`,
      `?after=${first.nextCursor}&$limit=50`,
    ]) {
      // Two reads of a sync page may differ on PostgreSQL (a page stops before transactions still open
      // anywhere in the cluster): the pair is read again until both saw the same invoices.
      for (let attempt = 1; ; attempt++) {
        const app = await ctx().app.inject({
          method: 'GET',
          url: `${t.invoices}${query}`,
          headers: { authorization: `Bearer ${t.token}` },
        });
        expect(app.headers['content-type']).toBe('application/json; charset=utf-8');
        const operator = await call(ctx().app, 'GET', `${t.admin}/invoices${query}`, { token: t.operator });
        const same = JSON.stringify(JSON.parse(app.body)) === JSON.stringify(operator.body.data);
        if (!same && attempt < 20) {
          await new Promise((r) => setTimeout(r, 100));
          continue;
        }
        expect(app.body, query).toBe(JSON.stringify(operator.body.data));
        break;
      }
    }
  });

  it('the alias and the operator list answer the same page', async () => {
    const page = (await find()).body;
    expect((await call(ctx().app, 'GET', t.alias, { token: t.token })).body).toEqual(page);
    expect((await call(ctx().app, 'GET', `${t.admin}/invoices`, { token: t.operator })).body.data).toEqual(page);
  });
});

/**
 * A total by nothing or by status is summed from live counts kept by triggers (migration
 * 032-invoice-find-counts), not counted from the invoices: after every kind of change that moves an
 * invoice between statuses, each total must equal the invoices the page itself lists, and another
 * business's invoices must count nowhere.
 */
describeEachStore("4.3 find's total follows every change of status", (ctx) => {
  let t: InvoiceTenant;
  let other: InvoiceTenant;
  beforeAll(async () => {
    [t, other] = [await seedInvoiceTenant(ctx()), await seedInvoiceTenant(ctx())];
  });
  const find = (tenant: InvoiceTenant, query: string) =>
    call(ctx().app, 'GET', `${tenant.invoices}${query}`, { token: tenant.token });
  const STATUSES = ['UNPAID', 'PARTIALLY_PAID', 'PAID', 'CANCELED'];

  /** Every total by nothing, by one status and by two, against the statuses of the invoices listed. */
  async function expectTotalsOfListed(tenant: InvoiceTenant) {
    const all = (await find(tenant, '?$limit=100')).body;
    const listed = all.data.map((invoice: any) => invoice.status as string);
    expect(all.total).toBe(listed.length);
    const queries = [...STATUSES.map((s) => [s]), ['UNPAID', 'CANCELED'], ['PAID', 'PARTIALLY_PAID']];
    const totals = await Promise.all(
      queries.map(async (q) => (await find(tenant, `?$limit=0&status=${q}`)).body.total),
    );
    expect(totals).toEqual(queries.map((q) => listed.filter((s: string) => q.includes(s)).length));
  }

  it('creates, payments, a removed payment, a zero total, cancels; another business untouched', async () => {
    await createInvoice(ctx(), other);
    const [a, b, c] = [await createInvoice(ctx(), t), await createInvoice(ctx(), t), await createInvoice(ctx(), t)];
    await createInvoice(ctx(), t, { items: [{ name: 'free', rate: 0, quantity: 1, gstRate: 0 }] });
    await expectTotalsOfListed(t);
    const pay = (id: string, amount: number) =>
      call(ctx().app, 'POST', `${t.invoices}/${id}/payments`, { token: t.token, body: { amount } });
    const partly = await pay(a._id, 100);
    expect(partly.status).toBe(201);
    expect((await pay(b._id, 1580)).status).toBe(201);
    await expectTotalsOfListed(t);
    const removed = await call(ctx().app, 'DELETE', `${t.admin}/invoices/${a._id}/payments/${partly.body._id}`, {
      token: t.operator,
    });
    expect(removed.status).toBe(200);
    await expectTotalsOfListed(t);
    const cancel = (id: string, query = '') =>
      call(ctx().app, 'POST', `${t.invoices}/${id}/cancel${query}`, { token: t.token });
    expect((await cancel(b._id, '?cancelPayment=true')).status).toBe(200);
    expect((await cancel(c._id)).status).toBe(200);
    expect((await cancel(c._id)).status).toBe(200);
    await expectTotalsOfListed(t);
    expect((await find(t, '?$limit=0')).body.total).toBe(4);
    expect((await find(t, '?$limit=0&status=CANCELED')).body.total).toBe(2);
    expect((await find(other, '?$limit=0')).body.total).toBe(1);
    // A status with another filter counts the invoices it selects.
    expect((await find(t, `?$limit=0&status=CANCELED&client=${c.client}`)).body.total).toBe(2);
  });

  it('by invoiceDate: bounds at any hour, near day boundaries or not, each side open or closed', async () => {
    const dated = await seedInvoiceTenant(ctx());
    // 30 invoices 3 h 10 min apart from 2026-03-01 20:00 UTC: every hour of four UTC days is near one.
    // Every third in dollars: the live counts are kept per currency, and a total sums them all.
    const start = Date.parse('2026-03-01T20:00:00Z');
    const instants = Array.from({ length: 30 }, (_, n) => start + n * 190 * 60_000);
    const dollars = {
      billedTo: buyer({ name: 'Dollar Buyer' }),
      currency: 'USD',
      items: [{ name: 'u', rate: 10, quantity: 1 }],
    };
    for (const [n, at] of instants.entries())
      await createInvoice(ctx(), dated, {
        invoiceNumber: `D-${n}`,
        invoiceDate: new Date(at).toISOString(),
        ...(n % 3 === 0 && dollars),
      });
    const iso = (at: number) => new Date(at).toISOString();
    const bounds = [
      start - 3_600_000,
      Date.parse('2026-03-02T00:00:00Z'),
      Date.parse('2026-03-02T00:00:00Z') - 1,
      Date.parse('2026-03-02T11:59:00Z'),
      Date.parse('2026-03-02T12:01:00Z'),
      instants[7]!,
      instants[7]! + 1,
      Date.parse('2026-03-03T23:00:00Z'),
      instants[29]!,
      instants[29]! + 86_400_000,
    ];
    const ranges = [
      ...bounds.flatMap((lo) => bounds.filter((hi) => hi >= lo).map((hi) => [lo, hi] as const)),
      ...bounds.flatMap((at) => [[at, undefined] as const, [undefined, at] as const]),
    ];
    for (const [lo, hi] of ranges) {
      const query = [
        lo === undefined ? '' : `&invoiceDate[$gte]=${iso(lo)}`,
        hi === undefined ? '' : `&invoiceDate[$lte]=${iso(hi)}`,
      ];
      const page = (await find(dated, `?$limit=100${query.join('')}`)).body;
      const expected = instants.filter((at) => (lo === undefined || at >= lo) && (hi === undefined || at <= hi));
      expect([page.total, page.data.length], `${query.join('')}`).toEqual([expected.length, expected.length]);
    }
    // Whole dates, read in the business's time zone: the total is what the page lists.
    const byDate = (await find(dated, '?$limit=100&invoiceDate[$gte]=2026-03-02&invoiceDate[$lte]=2026-03-03')).body;
    expect(byDate.total).toBe(byDate.data.length);
    expect(byDate.total).toBeGreaterThan(10);
  });
});

describeEachStore('4.3 sync: updatedAtFrom and after, in change order', (ctx) => {
  let t: InvoiceTenant;
  beforeAll(async () => {
    t = await seedInvoiceTenant(ctx());
  });
  const find = (query: string) => call(ctx().app, 'GET', `${t.invoices}${query}`, { token: t.token });

  /**
   * Walks sync pages from `query` until `done` holds: on PostgreSQL a page never passes a position a
   * transaction still open anywhere in the cluster could take (src/storage/sync-pages.ts), so rows just
   * committed may come a moment later while other work runs: the last cursor is asked again until then.
   */
  async function walk(query: string, done: (seen: any[]) => boolean): Promise<{ seen: any[]; last: string }> {
    const seen: any[] = [];
    let last = query;
    for (const deadline = Date.now() + 20_000; !done(seen) && Date.now() < deadline; ) {
      const page = await find(last);
      expect(page.body.total).toBeNull();
      seen.push(...page.body.data);
      if (page.body.nextCursor) last = `?after=${page.body.nextCursor}&$limit=2`;
      else await new Promise((r) => setTimeout(r, 100));
    }
    return { seen, last };
  }

  it('pages follow every invoice once, a payment brings an invoice again later; total null; $skip and $sort refused; cursors bound to the business', async () => {
    const made: any[] = [];
    for (let i = 0; i < 3; i += 1) made.push(await createInvoice(ctx(), t));
    const first = await find('?updatedAtFrom=2000-01-01&$limit=2');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: null, limit: 2 });
    const all = await walk('?updatedAtFrom=2000-01-01&$limit=2', (seen) => seen.length >= 3);
    expect(all.seen.map((i) => i._id)).toEqual(made.map((i) => i._id));
    expect(
      (await call(ctx().app, 'POST', `${t.invoices}/${made[0]._id}/payments`, { token: t.token, body: { amount: 1 } }))
        .status,
    ).toBe(201);
    const later = await walk(all.last, (seen) => seen.some((i) => i._id === made[0]._id));
    // The last page is read again from its own cursor: the paid invoice comes after it, once, as it is now.
    expect(later.seen.filter((i) => i._id === made[0]._id).map((i) => i.amountPaid)).toEqual([1]);
    expect(firstError(await find('?updatedAtFrom=2000-01-01&$skip=1')).code).toBe('INVALID_QUERY_FIELD');
    expect(firstError(await find('?updatedAtFrom=2000-01-01&$sort[createdAt]=1')).code).toBe('INVALID_QUERY_FIELD');
    expect(firstError(await find('?after=nonsense')).code).toBe('INVALID_QUERY_VALUE');
    const cursor = all.last.match(/after=([^&]+)/)?.[1] ?? first.body.nextCursor;
    const other = await seedInvoiceTenant(ctx());
    const foreign = await call(ctx().app, 'GET', `${other.invoices}?after=${cursor}`, { token: other.token });
    expect(firstError(foreign).code).toBe('INVALID_QUERY_VALUE');
  });

  it('a page cut at exactly $limit carries its cursor; the next brings the rest, and each invoice comes once', async () => {
    const own = await seedInvoiceTenant(ctx());
    const page = (query: string) => call(ctx().app, 'GET', `${own.invoices}${query}`, { token: own.token });
    const made = [await createInvoice(ctx(), own), await createInvoice(ctx(), own)];
    // PostgreSQL: a transaction holding an id stays open while the third invoice is written, so the
    // horizon stops a page before it (src/storage/sync-positions.ts). SQLite has no horizon: the third
    // invoice is written after the first two were read.
    let held: pg.Client | null = null;
    if (ctx().store.kind === 'postgres') {
      held = new pg.Client({ connectionString: sessionUrlOf(POSTGRES_URL) });
      await held.connect();
      await held.query('begin');
      await held.query('select pg_current_xact_id()');
      made.push(await createInvoice(ctx(), own));
    }
    const seen: string[] = [];
    let query = '?updatedAtFrom=2000-01-01&$limit=2';
    /** Reads pages until `count` invoices came; a page with rows must name the next, and only an empty one may not. */
    const readUntil = async (count: number) => {
      for (const deadline = Date.now() + 20_000; seen.length < count && Date.now() < deadline; ) {
        const r = await page(query);
        expect(r.status).toBe(200);
        seen.push(...r.body.data.map((i: any) => i._id));
        expect(r.body.nextCursor === null).toBe(r.body.data.length === 0);
        if (r.body.nextCursor) query = `?after=${r.body.nextCursor}&$limit=2`;
        else await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    try {
      await readUntil(2);
      expect(seen).toEqual(made.slice(0, 2).map((i) => i._id));
    } finally {
      await held?.query('commit');
      await held?.end();
    }
    if (ctx().store.kind === 'sqlite') made.push(await createInvoice(ctx(), own));
    await readUntil(3);
    const end = await page(query);
    expect([end.body.data, end.body.nextCursor]).toEqual([[], null]);
    expect(seen).toEqual(made.map((i) => i._id));
  });
});
