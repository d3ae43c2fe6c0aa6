// @module-tag dates
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ageingEdges, periodMonths } from '../../src/reports/report.period.js';
import {
  invoiceContributions,
  paymentContributions,
  stayContributions,
} from '../../src/storage/migrations/028-report-rollups.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { REPORTS_PIPELINES } from '../helpers/reports.js';
import { RawInvoiceReports, RawLeadReports } from '../helpers/reports-raw.js';
import { appSecretToken, operatorToken, seedTenant, type Tenant } from '../helpers/seed.js';
import { availableStores } from '../helpers/stores.js';

/**
 * Migration 028's rollups (docs/performance.md "Reports at 1,000,000 leads and 1,000,000 invoices")
 * after random writes through the API at instants near UTC month starts (where the reports' edges fall):
 * lead creates, moves (back into earlier stages too), reason changes and deletes; invoices, payments,
 * removed payments and cancels. The rollup rows must equal a recomputation from the raw rows, and every
 * report's figures from the rollups must equal the raw queries' (test/helpers/reports-raw.ts) for
 * periods of several time zones, +05:30, +05:45, -08:00 and +14:00 among them.
 */
const stores = await availableStores();
const SEED = Number(process.env.ROLLUPS_SEED ?? Date.now() % 100_000);
const ZONES = [
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'America/Los_Angeles',
  'Pacific/Kiritimati',
  'UTC',
  'America/St_Johns',
];

/** A small deterministic generator (its seed is printed with a failure). */
function random(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!,
  };
}

describe.each(stores)(`report rollups (migration 028) [%s] seed ${SEED}`, (storeName) => {
  let t: TestApp;
  let tenant: Tenant;
  let businessPk: number;
  const clock = { at: Date.parse('2026-05-20T00:00:00Z'), now: () => clock.at };
  const rand = random(SEED);
  let stageIds: { all: string[]; won: string[]; lost: string[] };

  /** Instants from June to November 2026, half of them within 16 hours of a UTC month start. */
  const instants = (count: number) =>
    Array.from({ length: count }, () => {
      const month = Date.UTC(2026, 5 + rand.int(6), 1);
      return rand.next() < 0.5
        ? month + (rand.int(32 * 4) - 64) * 900_000 + rand.int(900_000)
        : month + rand.int(28 * 86_400_000);
    }).sort((a, b) => a - b);

  beforeAll(async () => {
    t = await createTestApp(storeName, {}, clock);
    tenant = await seedTenant(t.app);
    const put = await call(t.app, 'PUT', `/admin/v1/businesses/${tenant.urlKey}/pipelines`, {
      token: tenant.operator,
      body: REPORTS_PIPELINES,
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const stages = put.body.data[0].pipelines[0].stages as { id: string; name: string; state: string }[];
    stageIds = {
      all: stages.map((s) => s.id),
      won: stages.filter((s) => s.state === 'CLOSED').map((s) => s.id),
      lost: stages.filter((s) => s.state === 'DROPPED' || s.state === 'REJECTED').map((s) => s.id),
    };
    const db = t.store.leadReports.db;
    businessPk = Number(
      (await db.selectFrom('businesses').select('id').where('url_key', '=', tenant.urlKey).executeTakeFirstOrThrow())
        .id,
    );
    await writeLeads();
    clock.at = Date.parse('2026-11-20T06:00:00Z');
    tenant.operator = await operatorToken(t.app);
    tenant.token = await appSecretToken(t.app, tenant.appId, tenant.appSecret);
    await writeInvoices();
  }, 240_000);
  afterAll(async () => t?.close());

  async function writeLeads(): Promise<void> {
    const leads = `/api/v1/businesses/${tenant.urlKey}/leads`;
    const live = ['New', 'Qualified', 'Proposal', 'Won', 'Lost', 'Rejected'];
    const reasons: Record<string, string[]> = {
      Qualified: ['Has budget'],
      Won: ['Good fit'],
      Lost: ['Price', 'Too late'],
    };
    const ids: string[] = [];
    for (const [n, at] of instants(70).entries()) {
      clock.at = at;
      const token = await appSecretToken(t.app, tenant.appId, tenant.appSecret);
      const roll = rand.next();
      let answer: Awaited<ReturnType<typeof call>>;
      if (ids.length < 4 || roll < 0.3) {
        const body = {
          externalId: `r-${n}`,
          customer: { name: `C${n}` },
          contact: { name: `P${n}` },
          pipeline: 'Sales',
          stage: rand.pick(live),
        };
        answer = await call(t.app, 'POST', leads, { token, body });
        ids.push(answer.body.data?.leadId);
      } else if (roll < 0.9) {
        const stage = rand.pick(live);
        const some = (reasons[stage] ?? []).filter(() => rand.next() < 0.6);
        const body =
          rand.next() < 0.15 ? { stageReasons: some } : { stage, ...(some.length > 0 && { stageReasons: some }) };
        answer = await call(t.app, 'PATCH', `${leads}/${rand.pick(ids)}`, { token, body });
        if (answer.status === 400) continue; // reasons that the lead's current stage does not offer
      } else {
        const id = ids.splice(rand.int(ids.length), 1)[0];
        answer = await call(t.app, 'DELETE', `/admin/v1/businesses/${tenant.urlKey}/leads/${id}`, {
          token: await operatorToken(t.app),
        });
      }
      expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
    }
  }

  async function writeInvoices(): Promise<void> {
    const admin = `/admin/v1/businesses/${tenant.urlKey}`;
    const settings = await call(t.app, 'PUT', `${admin}/invoice-settings`, {
      token: tenant.operator,
      body: { billedBy: { gstState: '29' }, numbering: {}, defaultTerms: [] },
    });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    const invoices = `/api/v1/businesses/${tenant.urlKey}/invoices`;
    const send = async (method: 'POST' | 'DELETE', path: string, body?: unknown, token = tenant.token) => {
      const answer = await call(t.app, method, path, { token, ...(body !== undefined && { body }) });
      expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
      return answer.body;
    };
    const open: { id: string; due: number; payments: string[] }[] = []; // due in paise
    const dates = instants(40);
    for (const at of dates) {
      const roll = rand.next();
      if (open.length < 3 || roll < 0.45) {
        const paise = 10_000 + rand.int(90_000);
        const dueDate = rand.next() < 0.2 ? undefined : new Date(at + rand.int(60) * 86_400_000).toISOString();
        const body = {
          billedTo: { name: 'Asha Traders', country: 'IN', gstState: '29' },
          items: [{ name: 'Service', rate: paise / 100, quantity: 1, gstRate: 0 }],
          invoiceDate: new Date(at).toISOString(),
          ...(dueDate && { dueDate }),
        };
        const created = await send('POST', invoices, body);
        open.push({ id: created._id, due: paise, payments: [] });
      } else if (roll < 0.8) {
        const invoice = rand.pick(open);
        if (invoice.due <= 0) continue;
        const amount = 1 + rand.int(invoice.due); // paise
        const paymentDate = new Date(at + rand.int(20) * 86_400_000).toISOString();
        const paid = await send('POST', `${invoices}/${invoice.id}/payments`, { amount: amount / 100, paymentDate });
        invoice.due -= amount;
        invoice.payments.push(paid._id);
      } else if (roll < 0.9) {
        const invoice = rand.pick(open);
        const payment = invoice.payments.pop();
        if (!payment) continue;
        await send('DELETE', `${admin}/invoices/${invoice.id}/payments/${payment}`, undefined, tenant.operator);
        open.splice(open.indexOf(invoice), 1);
      } else {
        const invoice = open.splice(rand.int(open.length), 1)[0]!;
        await send('POST', `${invoices}/${invoice.id}/cancel?cancelPayment=true`);
      }
    }
  }

  /** A table's rollup rows summed over slots, and the same recomputed from the raw rows, without zeros. */
  async function compare(table: string, keys: string, values: string[], contributions: string) {
    const db = t.store.leadReports.db;
    const order = keys
      .split(', ')
      .map((_, i) => i + 1)
      .join(', ');
    const kept = await sql
      .raw(`select ${keys}, ${values.map((v) => `cast(sum(${v}) as text) as ${v}`).join(', ')}
      from ${table} where business_pk = ${businessPk} group by ${keys}
      having ${values.map((v) => `sum(${v}) <> 0`).join(' or ')} order by ${order}`)
      .execute(db);
    const deltas = values.length === 1 ? ['delta'] : ['dn', 'dminor'];
    const again = await sql
      .raw(`select ${keys}, ${deltas.map((d, i) => `cast(sum(${d}) as text) as ${values[i]}`).join(', ')}
      from (${contributions}) d group by ${keys}
      having ${deltas.map((d) => `sum(${d}) <> 0`).join(' or ')} order by ${order}`)
      .execute(db);
    expect(kept.rows, `seed ${SEED}`).toEqual(again.rows);
    return kept.rows.length;
  }

  it('the rollups the triggers kept equal a recomputation from the raw rows', async () => {
    const kind = t.store.kind;
    const stays = await compare(
      'lead_stay_rollups',
      'series, stage_id, other, bucket',
      ['n'],
      stayContributions(`(select * from lead_stays s where s.business_pk = ${businessPk}) s`, '+', kind),
    );
    expect(stays).toBeGreaterThan(20);
    const invoices = await compare(
      'invoice_rollups',
      'series, currency, bucket',
      ['n', 'minor'],
      `${invoiceContributions(`(select * from invoices i where i.business_pk = ${businessPk}) i`, '+', kind)}
      union all ${paymentContributions(`(select * from invoice_payments p where p.business_pk = ${businessPk}) p`, '+', kind)}`,
    );
    expect(invoices).toBeGreaterThan(5);
  });

  it.each(ZONES)('every report from the rollups equals the raw queries, months of %s', async (zone) => {
    const leads = t.store.leadReports;
    const raw = new RawLeadReports(leads.db, leads.kind);
    const rawInvoices = new RawInvoiceReports(leads.db, leads.kind);
    const now = Date.parse('2026-11-20T06:00:00Z');
    const byKey = <T>(rows: T[], key: (row: T) => string) => [...rows].sort((a, b) => key(a).localeCompare(key(b)));
    for (const count of [1, 3, 7, -4]) {
      // -4: the first 4 of 7 months, a period that ends in the past (leads entered again since).
      const months = count > 0 ? periodMonths(zone, now, count) : periodMonths(zone, now, 7).slice(0, -count);
      const from = months[0]!.from;
      const to = months.at(-1)!.to;
      const outcome = (r: { month: string; stageId: string }) => `${r.month} ${r.stageId}`;
      const stages = [...stageIds.won, ...stageIds.lost];
      expect(byKey(await leads.outcomes(tenant.urlKey, stages, months), outcome)).toEqual(
        byKey(await raw.outcomes(tenant.urlKey, stages, months), outcome),
      );
      const reason = (r: { reasonKey: string | null }) => r.reasonKey ?? '';
      expect(byKey(await leads.lostReasons(tenant.urlKey, stageIds.lost, from, to), reason)).toEqual(
        byKey(await raw.lostReasons(tenant.urlKey, stageIds.lost, from, to), reason),
      );
      const stage = (r: { stageId: string }) => r.stageId;
      expect(byKey(await leads.stageFlow(tenant.urlKey, stageIds, from, to), stage)).toEqual(
        byKey(await raw.stageFlow(tenant.urlKey, stageIds, from, to), stage),
      );
      expect(byKey(await leads.stageStays(tenant.urlKey, stageIds.all, from, to), stage)).toEqual(
        byKey(await raw.stageStays(tenant.urlKey, stageIds.all, from, to), stage),
      );
      const money = (r: { month: string; currency: string }) => `${r.month} ${r.currency}`;
      const invoices = t.store.invoiceReports;
      expect(byKey(await invoices.invoiced(tenant.urlKey, months), money)).toEqual(
        byKey(await rawInvoices.invoiced(tenant.urlKey, months), money),
      );
      expect(byKey(await invoices.collected(tenant.urlKey, months), money)).toEqual(
        byKey(await rawInvoices.collected(tenant.urlKey, months), money),
      );
    }
    for (const day of [0, 9, 31, 45]) {
      const { today: _, ...edges } = ageingEdges(zone, now + day * 86_400_000);
      const aged = (r: { bucket: string; currency: string }) => `${r.bucket} ${r.currency}`;
      expect(byKey(await t.store.invoiceReports.ageing(tenant.urlKey, edges), aged)).toEqual(
        byKey(await rawInvoices.ageing(tenant.urlKey, edges), aged),
      );
    }
  });

  it('a lead moved back into a stage counts once there, and conversion follows it out of Won', async () => {
    const flow = () =>
      t.store.leadReports.stageFlow(tenant.urlKey, stageIds, Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1));
    const before = await flow();
    const token = await appSecretToken(t.app, tenant.appId, tenant.appSecret);
    const leads = `/api/v1/businesses/${tenant.urlKey}/leads`;
    const body = {
      externalId: `again-${SEED}`,
      customer: { name: 'Again' },
      contact: { name: 'Again' },
      pipeline: 'Sales',
      stage: 'New',
    };
    const id = (await call(t.app, 'POST', leads, { token, body })).body.data.leadId;
    for (const stage of ['Won', 'New', 'Won', 'Proposal'])
      expect((await call(t.app, 'PATCH', `${leads}/${id}`, { token, body: { stage } })).status).toBe(200);
    const entered = (rows: typeof before, i: number) => rows.find((r) => r.stageId === stageIds.all[i]);
    const after = await flow();
    expect(entered(after, 0)!.entered - (entered(before, 0)?.entered ?? 0)).toBe(1); // New
    expect(entered(after, 4)!.entered - (entered(before, 4)?.entered ?? 0)).toBe(1); // Won
    expect(entered(after, 4)!.won - (entered(before, 4)?.won ?? 0)).toBe(0); // no longer won
    const raw = new RawLeadReports(t.store.leadReports.db, t.store.kind);
    const sorted = (rows: typeof before) => [...rows].sort((a, b) => a.stageId.localeCompare(b.stageId));
    expect(sorted(after)).toEqual(
      sorted(await raw.stageFlow(tenant.urlKey, stageIds, Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1))),
    );
    // A period that ends before the lead's last entries: its earlier entries count.
    const to = Date.parse('2026-11-20T06:00:00Z') - 1;
    expect(sorted(await t.store.leadReports.stageFlow(tenant.urlKey, stageIds, Date.UTC(2026, 0, 1), to))).toEqual(
      sorted(await raw.stageFlow(tenant.urlKey, stageIds, Date.UTC(2026, 0, 1), to)),
    );
  });
});
