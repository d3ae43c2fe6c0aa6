// What migration 028's report rollups cost a write, on the seeded reports bench database (bench/scenarios/
// reports.ts, 1,000,000 leads and invoices): a lead move (a STAGE_CHANGE activity, whose trigger updates the
// lead's stays, which update the rollups), an invoice create and a payment, each in its own transaction
// (rolled back, so the database is unchanged), timed with the rollup triggers enabled and then disabled.
// Wall time per transaction, ms (p50 / mean). Not part of the test suite. Run:
//   BENCH_REPORTS_DATABASE_URL=postgres://postgres@127.0.0.1:5432/crmkit_bench_reports \
//     npx tsx bench/experiments/report-rollups-write-cost.ts   (ROLLUP_WRITES=300)
import pg from 'pg';

const URL_ = process.env.BENCH_REPORTS_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/crmkit_bench_reports';
const COUNT = Number(process.env.ROLLUP_WRITES ?? 300);
const TRIGGERS = ['lead_stays', 'invoices', 'invoice_payments'].flatMap((table) =>
  ['insert', 'update', 'delete'].map((event) => ({ table, name: `${table}_rollups_${event}` })),
);

const stats = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  return `p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} / mean ${mean.toFixed(2)}`;
};

async function timed(db: pg.Client, write: (i: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < COUNT; i++) {
    const started = performance.now();
    await db.query('begin');
    await write(i);
    await db.query('rollback');
    times.push(performance.now() - started);
  }
  return times;
}

async function main(): Promise<void> {
  const db = new pg.Client({ connectionString: URL_ });
  await db.connect();
  const business = (await db.query(`select id from businesses where url_key = 'bench-reports'`)).rows[0].id;
  const stages = (
    await db.query('select distinct stage_id from lead_stays where business_pk = $1 limit 7', [business])
  ).rows.map((r) => r.stage_id as string);
  const leads = (await db.query('select id, stage_id from leads where business_pk = $1 limit $2', [business, COUNT]))
    .rows;
  const invoice = (await db.query('select id, currency from invoices where business_pk = $1 limit 1', [business]))
    .rows[0];
  const now = Date.now();
  const writes = {
    'lead move': (i: number) => {
      const lead = leads[i % leads.length];
      const to = stages.find((s) => s !== lead.stage_id);
      return db.query(
        `insert into lead_activities (lead_pk, activity_id, type, author, data, created_at)
         values ($1, $2, 'STAGE_CHANGE', 'API', $3, $4)`,
        [lead.id, `wc_${i}`, JSON.stringify({ fromStageId: lead.stage_id, toStageId: to, reasonKeys: [] }), now],
      );
    },
    'invoice create': (i: number) =>
      db.query(
        `insert into invoices (business_pk, invoice_id, invoice_number, client_id, status, currency, total_minor,
          paid_minor, invoice_date, share_token, content, create_request, created_at, updated_at)
         values ($1, $2, $3, 'cl_1', 'UNPAID', 'INR', 10000, 0, $4, $5, $6, '{}', $4, $4)`,
        [business, `wc${i}`, `WC-${i}`, now, `wc_${i}`, JSON.stringify({ dueDate: new Date(now).toISOString() })],
      ),
    payment: (i: number) =>
      db.query(
        `insert into invoice_payments (invoice_pk, payment_id, settled_minor, removed, data, created_at)
         values ($1, $2, 100, 0, $3, $4)`,
        [invoice.id, `wc${i}`, JSON.stringify({ paymentDate: new Date(now).toISOString() }), now],
      ),
  };
  const toggle = async (on: boolean) => {
    for (const t of TRIGGERS) await db.query(`alter table ${t.table} ${on ? 'enable' : 'disable'} trigger ${t.name}`);
  };
  try {
    for (const [label, write] of Object.entries(writes)) {
      await timed(db, write); // warm-up
      const withRollups = await timed(db, write);
      await toggle(false);
      const without = await timed(db, write);
      await toggle(true);
      console.log(`${label.padEnd(15)} with rollups ${stats(withRollups)} ms   without ${stats(without)} ms`);
    }
  } finally {
    await toggle(true);
    await db.end();
  }
}

await main();
