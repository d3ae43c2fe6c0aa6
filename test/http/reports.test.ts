// @module-tag dates
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillLeadStays } from '../../src/storage/migrations/026-report-aggregates.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { availableStores } from '../helpers/stores.js';
import { appSecretToken, operatorToken, seedTenant, type Tenant } from '../helpers/seed.js';
import { REPORTS_PIPELINES, seedReportHistory, seedReportInvoices, REPORTS_NOW } from '../helpers/reports.js';

/**
 * Issue 38 item 4: the reports (GET /admin/v1/businesses/:urlKey/reports/…) on a history seeded through
 * the API at known instants (test/helpers/reports.ts), in an Indian business (Asia/Kolkata, +05:30). The
 * expected figures below were worked out by hand from that history; the comments show the sums.
 */
const stores = await availableStores();

describe.each(stores)('reports (issue 38) [%s]', (storeName) => {
  let t: TestApp;
  let tenant: Tenant;
  const clock = { at: 0, now: () => clock.at };
  const report = async (path: string, query = '') => {
    const answer = await call(t.app, 'GET', `/admin/v1/businesses/${tenant.urlKey}/reports/${path}${query}`, {
      token: tenant.operator,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.success).toBe(true);
    return answer.body.data[0];
  };

  beforeAll(async () => {
    clock.at = Date.parse('2026-08-15T06:00:00Z');
    t = await createTestApp(storeName, {}, clock);
    tenant = await seedTenant(t.app);
    const put = await call(t.app, 'PUT', `/admin/v1/businesses/${tenant.urlKey}/pipelines`, {
      token: tenant.operator,
      body: REPORTS_PIPELINES,
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    await seedReportHistory(t.app, tenant, clock);
    clock.at = REPORTS_NOW;
    tenant.token = await appSecretToken(t.app, tenant.appId, tenant.appSecret);
    tenant.operator = await operatorToken(t.app);
    await seedReportInvoices(t.app, tenant);
  }, 120_000);
  afterAll(async () => t?.close());

  it('pipeline value: live leads and budgets per stage, weighted exactly by each closure', async () => {
    const data = await report('pipeline-value');
    expect(data).toMatchObject({ locale: 'en-IN', timeZone: 'Asia/Kolkata', currency: 'INR', pipeline: 'Sales' });
    const rows = data.stages.map((s: any) => [s.name, s.closure, s.count, s.values]);
    expect(rows).toEqual([
      // C: 0.2 × 12.5% = 0.025
      ['New', 12.5, 1, [{ currency: 'INR', amount: '0.2', weighted: '0.025' }]],
      // G: 300 × 40%
      ['Qualified', 40, 1, [{ currency: 'INR', amount: '300', weighted: '120' }]],
      // I (999.99) and J (no budget); no closure: no weight
      ['Proposal', null, 2, [{ currency: 'INR', amount: '999.99', weighted: null }]],
      ['Old step', null, 0, []],
      // A (1000.50 INR) and D (2500 USD); the removed H is not counted
      [
        'Won',
        100,
        2,
        [
          { currency: 'INR', amount: '1000.5', weighted: '1000.5' },
          { currency: 'USD', amount: '2500', weighted: '2500' },
        ],
      ],
      // B (0.1) and E (no budget), closure 0
      ['Lost', 0, 2, [{ currency: 'INR', amount: '0.1', weighted: '0' }]],
      ['Rejected', null, 1, []],
    ]);
    // INR: 0.2 + 300 + 999.99 + 1000.5 + 0.1 = 2300.79; weighted 0.025 + 120 + 1000.5 + 0 = 1120.525
    expect(data.forecast).toEqual([
      { currency: 'INR', amount: '2300.79', weighted: '1120.525' },
      { currency: 'USD', amount: '2500', weighted: '2500' },
    ]);
  });

  it('won and lost per month in the business time zone, and lost leads by reason', async () => {
    const data = await report('lead-outcomes', '?months=3');
    expect(data.period).toEqual({ firstMonth: '2026-09', lastMonth: '2026-11' });
    // A won 22 Sep; D won 14 Oct; E lost 3 Oct; B lost 2026-10-31T19:00Z = 1 Nov 00:30 in Kolkata; F rejected 5 Nov.
    expect(data.months).toEqual([
      { month: '2026-09', won: 1, lost: 0 },
      { month: '2026-10', won: 1, lost: 1 },
      { month: '2026-11', won: 0, lost: 2 },
    ]);
    // B: Price; E: Price and Too late; F: none.
    expect(data.lostByReason).toEqual([
      { reason: 'price', label: 'Price', leads: 2 },
      { reason: 'late', label: 'Too late', leads: 1 },
      { reason: null, label: null, leads: 1 },
    ]);
    // One month: November alone (B and F).
    const november = await report('lead-outcomes', '?months=1');
    expect(november.months).toEqual([{ month: '2026-11', won: 0, lost: 2 }]);
    expect(november.lostByReason.map((r: any) => [r.reason, r.leads])).toEqual([
      ['price', 1],
      [null, 1],
    ]);
  });

  it('conversion to won and median days per stage, from the activity history', async () => {
    const data = await report('stage-flow', '?months=3');
    const rows = data.stages.map((s: any) => [s.name, s.entered, s.won, s.conversion, s.stays, s.medianDays]);
    expect(rows).toEqual([
      // Entered in Sep–Nov: A, B, C, E, J, F (G entered in August; H is removed); won: A. 1/6.
      // Stays ended: J 0.5, A 2, E 2, F 3, B 4, G 17 days: median (2 + 3) / 2.
      ['New', 6, 1, 0.1667, 6, 2.5],
      // Entered: G (1 Sep), A, B, D, J; won: A, D. Stays: J 1.5, D 9, A 10, B 46.54: median (9 + 10) / 2.
      // D's change of reasons on 6 Oct is no move.
      ['Qualified', 5, 2, 0.4, 4, 9.5],
      ['Proposal', 2, 0, 0, 0, null],
      ['Old step', 0, 0, null, 0, null],
      ['Won', 2, 2, 1, 0, null],
      ['Lost', 2, 0, 0, 0, null],
      ['Rejected', 1, 0, 0, 0, null],
    ]);
  });

  it('invoiced and collected per month, exact, by the dates in the business time zone', async () => {
    const data = await report('invoicing', '?months=3');
    expect(data.period).toEqual({ firstMonth: '2026-09', lastMonth: '2026-11' });
    expect(data.months).toEqual([
      {
        month: '2026-09',
        // V1 1000.10 (V6 300 is canceled); V1's first payment 400.10 (V6's 100 was removed by the cancel)
        invoiced: [{ currency: 'INR', amount: '1000.10', count: 1 }],
        collected: [{ currency: 'INR', amount: '400.10', count: 1 }],
      },
      {
        month: '2026-10',
        // V3 250.05; V1's 600.00 + V3's 50.05 paid at 23:59:59 on 31 Oct in Kolkata
        invoiced: [{ currency: 'INR', amount: '250.05', count: 1 }],
        collected: [{ currency: 'INR', amount: '650.05', count: 2 }],
      },
      {
        month: '2026-11',
        // V2 0.20 dated 2026-10-31T20:00Z (1 Nov in Kolkata) + V5 500.00
        invoiced: [{ currency: 'INR', amount: '500.20', count: 2 }],
        collected: [],
      },
    ]);
  });

  it('receivables by days past due as of today in the business time zone', async () => {
    const data = await report('receivables');
    expect(data.asOf).toBe('2026-11-20');
    const buckets = Object.fromEntries(data.buckets.map((b: any) => [b.bucket, b.amounts]));
    expect(buckets).toEqual({
      current: [{ currency: 'INR', amount: '500.00', count: 1 }], // V5, no due date
      '0-30': [{ currency: 'INR', amount: '0.20', count: 1 }], // V2, due today
      '31-60': [{ currency: 'INR', amount: '200.00', count: 1 }], // V3 250.05 − 50.05, due 20 Oct (31 days)
      '61-90': [{ currency: 'INR', amount: '70.00', count: 1 }], // V7, due 22 Aug (90 days)
      'over-90': [{ currency: 'INR', amount: '99.99', count: 1 }], // V4, due 20 Aug (92 days)
    });
  });

  it('migration 026: the stays its triggers kept equal the backfill it makes from the activity history', async () => {
    const db = t.store.leadReports.db;
    const businessPk = Number(
      (await db.selectFrom('businesses').select('id').where('url_key', '=', tenant.urlKey).executeTakeFirstOrThrow())
        .id,
    );
    const read = async () =>
      (
        await sql<Record<string, unknown>>`select lead_pk, stage_id, entered_at, left_at, current_stage_id, reason_keys
          from lead_stays where business_pk = ${businessPk} order by lead_pk, entered_at`.execute(db)
      ).rows.map((row) => Object.values(row).map((value) => (value === null ? null : String(value))));
    const kept = await read();
    // A 3, B 3, C 1, D 2, E 2, F 2, G 2, I 1, J 3 (the removed H has none).
    expect(kept.length).toBe(19);
    await sql`delete from lead_stays where business_pk = ${businessPk}`.execute(db);
    await fillLeadStays(db as never, t.store.kind, businessPk);
    expect(await read()).toEqual(kept);
  });

  it('refuses unknown parameters, bad months and unknown pipelines with 400s; another business is 404', async () => {
    const refused = async (path: string, status: number, code: string) => {
      const answer = await call(t.app, 'GET', path, { token: tenant.operator });
      expect([answer.status, answer.body.data?.error?.code], path).toEqual([status, code]);
    };
    const base = `/admin/v1/businesses/${tenant.urlKey}/reports`;
    await refused(`${base}/lead-outcomes?months=0`, 400, 'INVALID_QUERY_VALUE');
    await refused(`${base}/lead-outcomes?months=25`, 400, 'INVALID_QUERY_VALUE');
    await refused(`${base}/invoicing?months=1.5`, 400, 'INVALID_QUERY_VALUE');
    await refused(`${base}/receivables?months=3`, 400, 'INVALID_QUERY_FIELD');
    await refused(`${base}/pipeline-value?sort=x`, 400, 'INVALID_QUERY_FIELD');
    await refused(`${base}/stage-flow?pipeline=Nope`, 400, 'INVALID_PIPELINE');
    await refused('/admin/v1/businesses/no-such-business/reports/receivables', 404, 'BUSINESS_NOT_FOUND');
    const anonymous = await call(t.app, 'GET', `${base}/receivables`);
    expect(anonymous.status).toBe(401);
  });

  it('a business without pipelines or invoices answers empty reports, not errors', async () => {
    const other = await seedTenant(t.app);
    const get = async (path: string) =>
      (await call(t.app, 'GET', `/admin/v1/businesses/${other.urlKey}/reports/${path}`, { token: other.operator })).body
        .data[0];
    expect((await get('pipeline-value')).stages).toEqual([]);
    expect((await get('lead-outcomes?months=2')).months).toEqual([
      { month: '2026-10', won: 0, lost: 0 },
      { month: '2026-11', won: 0, lost: 0 },
    ]);
    expect((await get('receivables')).buckets.every((b: any) => b.amounts.length === 0)).toBe(true);
  });
});
