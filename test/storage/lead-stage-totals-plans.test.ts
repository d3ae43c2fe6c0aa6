import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery, sql } from 'kysely';
import type { LeadListFilter } from '../../src/storage/lead-lists.records.js';
import { testConfig } from '../../src/config.js';
import { openStore, type Store } from '../../src/storage/store.js';
import {
  availableStores,
  privatePostgresDatabase,
  type PrivateDatabase,
  insertBareBusiness,
} from '../helpers/stores.js';

/**
 * Issue 39: a board column's figures with the board's counted filters read the live counts and sums
 * (migrations 005 and 020) by their key, business and pipeline first, never a whole table. Three
 * businesses of 20,000 key rows each, analysed, so that the planner has a choice to make: a Seq Scan
 * on either table here is a filter without its index.
 */
const postgres = (await availableStores()).includes('postgres');
const BUSINESSES = ['totals-a', 'totals-b', 'totals-c'];

const CASES: [string, LeadListFilter][] = [
  ['pipeline (the board)', { pipelineIds: ['pl_1'] }],
  ['pipeline + assignee', { pipelineIds: ['pl_1'], assigneeIds: ['m7'] }],
  ['pipeline + source + status', { pipelineIds: ['pl_1'], leadSourceKeys: ['S3'], statusStageIds: ['st_5'] }],
  [
    'pipeline + unassigned + no follow-up',
    { pipelineIds: ['pl_1'], assigneeIds: [], unassigned: true, followUpNone: true },
  ],
];

describe.runIf(postgres)('lead stage totals plans on PostgreSQL (issue 39)', () => {
  let database: PrivateDatabase;
  let store: Store;
  beforeAll(async () => {
    database = await privatePostgresDatabase('crm_totalsplans');
    store = openStore(testConfig({ databaseUrl: database.url, pgPoolSize: 2 }));
    await store.migrate();
    for (const urlKey of BUSINESSES) await insertBareBusiness(store.leads.db, urlKey);
    // Key rows as the triggers write them, spread over 3 pipelines of 8 stages, 8 sources, 25 assignees, both follow-up states and 4 slots.
    const key =
      sql.raw(`b.id, 'pl_' || (i % 3), 'st_' || (i % 24 / 3), 'S' || (i % 8), case when i % 25 = 0 then '' else 'm' || (i % 25) end,
      (i / 600) % 2, i % 4 + 4 * (i / 1200)`);
    const columns = sql.raw('business_pk, pipeline_id, stage_id, lead_source_key, assignee_id, no_follow_up, slot');
    await sql`insert into lead_counts (${columns}, live) select ${key}, 1 + i % 5 from businesses b cross join generate_series(0, 19999) i`.execute(
      store.leads.db,
    );
    await sql`insert into lead_budget_sums (${columns}, currency, live, units_hi, units_lo)
      select ${key}, 'INR', 1 + i % 5, i % 7, i from businesses b cross join generate_series(0, 19999) i`.execute(
      store.leads.db,
    );
    await sql`vacuum analyze lead_counts`.execute(store.leads.db);
    await sql`vacuum analyze lead_budget_sums`.execute(store.leads.db);
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it.each(CASES)('%s: both statements read their table through its key', async (_name, filter) => {
    const statements = await store.leadStageTotals.compile('totals-b', filter);
    expect(statements).toHaveLength(2);
    for (const statement of statements) {
      const explained = await store.leads.db.executeQuery<{ 'QUERY PLAN': unknown }>(
        CompiledQuery.raw(`explain (format json) ${statement.sql}`, [...statement.parameters]),
      );
      const scans = scansOf((explained.rows[0]!['QUERY PLAN'] as { Plan: PlanNode }[])[0]!.Plan);
      const totals = scans.filter((s) => s.table === 'lead_counts' || s.table === 'lead_budget_sums');
      expect(totals.length, JSON.stringify(scans)).toBe(1);
      expect(totals[0]!.type, JSON.stringify(scans)).toMatch(/^(Index Scan|Index Only Scan|Bitmap Heap Scan)$/);
    }
  });
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

function scansOf(node: PlanNode): { type: string; table: string }[] {
  const own = node['Relation Name'] ? [{ type: node['Node Type'], table: node['Relation Name'] }] : [];
  return [...own, ...(node.Plans ?? []).flatMap(scansOf)];
}
