import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery, sql } from 'kysely';
import { insertVolume, syntheticConfig } from '../../bench/leads-volume.js';
import type { LeadListFilter, LeadListQuery } from '../../src/storage/lead-lists.records.js';
import { testConfig } from '../../src/config.js';
import { openStore, type Store } from '../../src/storage/store.js';
import {
  availableStores,
  configFor,
  privatePostgresDatabase,
  type PrivateDatabase,
  insertBareBusiness,
} from '../helpers/stores.js';

/**
 * Issue 21 item 5: every documented filter and sort has an index. On PostgreSQL, with enough leads for
 * the planner to care (two businesses, 40,000 and 20,000 leads, analysed), the first page and the total
 * of every single-filter list must not read the leads table sequentially. The planner's own choice, no
 * setting forced: a filter without a usable index shows up here as a Seq Scan.
 */
const postgres = (await availableStores()).includes('postgres');
const config = syntheticConfig();
const BIG = 'plans-big';
const DAY = 86_400_000;

const base = (filter: LeadListFilter, extra: Partial<LeadListQuery> = {}): LeadListQuery => ({
  filter,
  limit: 10,
  skip: 0,
  sort: [],
  ...extra,
});
const CASES: [string, LeadListQuery][] = [
  ['no filter', base({})],
  ...(['createdAt', 'updatedAt', 'followUpDate', 'budget.amount'] as const).flatMap((field) =>
    ([1, -1] as const).map(
      (direction) =>
        [`$sort[${field}]=${direction}`, base({}, { sort: [{ field, direction }] })] as [string, LeadListQuery],
    ),
  ),
  ['pipeline', base({ pipelineIds: ['pl_v1'] })],
  ['pipeline + stage', base({ pipelineIds: ['pl_v1'], stageIds: ['st_v1_3'] })],
  ['status', base({ statusStageIds: ['st_v0_5', 'st_v1_5', 'st_v2_5'] })],
  ['tags', base({ tagIds: ['tag_v3'] })],
  ['tags (two)', base({ tagIds: ['tag_v3', 'tag_v4'] })],
  ['leadSource', base({ leadSourceKeys: ['EVENT'] })],
  ['assignedTo', base({ assigneeIds: ['mem_v2'] })],
  ['assignedTo UNASSIGNED', base({ assigneeIds: [], unassigned: true })],
  ['externalId', base({ externalId: 'ext-pb1a' })],
  ['clientId', base({ clientId: 'cl-42' })],
  ['contactId', base({ contactId: 'ct-pb1a' })],
  ['contactName', base({ contactName: 'Ravi Rao' })],
  ['contactEmail', base({ contactEmail: 'ravi.rao17@example.com' })],
  ['contactPhone', base({ contactPhone: '+919000001234' })],
  ['createdAt range', base({ createdFrom: Date.UTC(2025, 5, 1), createdTo: Date.UTC(2025, 5, 1) + 7 * DAY })],
  ['followUpDate range', base({ followUpFrom: '2025-06-01', followUpTo: '2025-06-08' })],
  ['followUpDate=none', base({ followUpNone: true })],
  ['budget range', base({ budgetMin: 1000, budgetMax: 1100 })],
  ['q', base({ words: { any: ['solar'], subject: [], details: [] } })],
  ['q prefix', base({ words: { any: ['renov'], subject: [], details: [] } })],
  ['subject', base({ words: { any: [], subject: ['roofing'], details: [] } })],
  ['details', base({ words: { any: [], subject: [], details: ['cabling'] } })],
  // Both phases of a sync (src/storage/sync-pages.ts): catch-up by updatedAt below the start, then by position.
  [
    'sync from',
    base({}, { sync: { cursor: { phase: 'catch-up', from: Date.UTC(2026, 0, 1), start: null, after: null } } }),
  ],
  [
    'sync after',
    base(
      {},
      {
        sync: {
          cursor: {
            phase: 'catch-up',
            from: null,
            start: 1e12,
            after: { updatedAt: Date.UTC(2025, 3, 1), key: 'pb1a' },
          },
        },
      },
    ),
  ],
  [
    'sync following',
    base({}, { sync: { cursor: { phase: 'follow', from: Date.UTC(2025, 3, 1), position: 0, key: 'pb1a' } } }),
  ],
];

describe.runIf(postgres)('lead list plans on PostgreSQL (issue 21 item 5)', () => {
  let database: PrivateDatabase;
  let store: Store;
  beforeAll(async () => {
    database = await privatePostgresDatabase('crm_leadplans');
    store = openStore(testConfig({ databaseUrl: database.url, pgPoolSize: 2 }));
    await store.migrate();
    for (const urlKey of [BIG, 'plans-other']) await insertBareBusiness(store.leads.db, urlKey);
    await insertVolume(store.leads.db, BIG, config, { to: 40_000, prefix: 'pb' });
    await insertVolume(store.leads.db, 'plans-other', config, { to: 20_000, prefix: 'po' });
    await sql`vacuum analyze leads`.execute(store.leads.db);
    await sql`vacuum analyze lead_tags`.execute(store.leads.db);
    await sql`vacuum analyze lead_words`.execute(store.leads.db);
  }, 300_000);
  // UNSTAGED (a stage no longer in the configuration) cannot be indexed: it reads the pipeline's leads
  // through the pipeline index, never the table.
  it('pipeline + UNSTAGED: through the pipeline index, no sequential scan', async () => {
    const query = base({
      pipelineIds: ['pl_v1'],
      unstaged: { pipelineIds: ['pl_v1'], knownStageIds: config.pipelines[1]!.stageIds.slice(0, 7) },
    });
    for (const statement of await store.leadLists.compile(BIG, query)) {
      const scans = await scansOf(store, statement);
      expect(scans.length).toBeGreaterThan(0);
      expect(
        scans.filter((scan) => scan.type === 'Seq Scan'),
        JSON.stringify(scans),
      ).toEqual([]);
    }
  });

  // Migration 006-lead-counts: a total whose filter the live counts are kept by never reads the leads.
  it.each(
    CASES.filter(([name]) => /^(no filter|\$sort|pipeline|status|leadSource|assignedTo|followUpDate=none)/.test(name)),
  )('%s: the total is a sum of live counts, not a count of leads', async (_name, query) => {
    const [, count] = await store.leadLists.compile(BIG, query);
    const scans = await scansOf(store, count!);
    expect(
      scans.map((scan) => scan.relation),
      JSON.stringify(scans),
    ).toEqual(['lead_counts']);
  });

  // Migration 007-lead-words: one tag alone has its live count.
  it("tags (one): the total is the tag's live count, not a count of leads", async () => {
    const [, count] = await store.leadLists.compile(BIG, base({ tagIds: ['tag_v3'] }));
    const scans = await scansOf(store, count!);
    expect(
      scans.map((scan) => scan.relation),
      JSON.stringify(scans),
    ).toEqual(['lead_tag_counts']);
  });

  // Migration 007-lead-words: free text alone is answered from the word table, read index-only; the
  // total never reads a lead, the first page only the leads it shows (by row id).
  it.each(CASES.filter(([name]) => /^(q|subject|details)/.test(name)))(
    '%s: the word table answers, index-only; the page reads only its own leads',
    async (_name, query) => {
      const [page, count] = await store.leadLists.compile(BIG, query);
      const counted = await scansOf(store, count!);
      expect(
        counted.map((scan) => `${scan.relation} ${scan.type}`),
        JSON.stringify(counted),
      ).toEqual(expect.arrayContaining(['lead_words Index Only Scan']));
      expect(
        counted.filter((scan) => scan.relation !== 'lead_words' || scan.type !== 'Index Only Scan' || scan.fetches > 0),
        JSON.stringify(counted),
      ).toEqual([]);
      const paged = await scansOf(store, page!);
      const leads = paged.filter((scan) => scan.relation === 'leads');
      expect(
        leads.map((scan) => scan.index),
        JSON.stringify(paged),
      ).toEqual(['leads_pkey']);
      expect(leads[0]!.rows, JSON.stringify(paged)).toBeLessThanOrEqual(query.limit + query.skip);
      expect(
        paged.filter((scan) => scan.relation === 'lead_words' && scan.type !== 'Index Only Scan'),
        JSON.stringify(paged),
      ).toEqual([]);
    },
  );

  // Migration 008-lead-words-best: the word table's rows carry their lead's pipeline, so free text with a
  // pipeline reads the word table alone, index-only; the page reads only its own leads.
  it('q + pipeline: the word table answers alone, index-only; the page reads only its own leads', async () => {
    const query = base({ pipelineIds: ['pl_v1'], words: { any: ['solar'], subject: [], details: [] } });
    const [page, count] = await store.leadLists.compile(BIG, query);
    const counted = await scansOf(store, count!);
    expect(
      counted.filter((scan) => scan.relation !== 'lead_words' || scan.type !== 'Index Only Scan' || scan.fetches > 0),
      JSON.stringify(counted),
    ).toEqual([]);
    const paged = await scansOf(store, page!);
    const leads = paged.filter((scan) => scan.relation === 'leads');
    expect(
      leads.map((scan) => scan.index),
      JSON.stringify(paged),
    ).toEqual(['leads_pkey']);
    expect(leads[0]!.rows, JSON.stringify(paged)).toBeLessThanOrEqual(query.limit);
    expect(
      paged.filter((scan) => scan.relation === 'lead_words' && scan.type !== 'Index Only Scan'),
      JSON.stringify(paged),
    ).toEqual([]);
  });

  // With a structured filter the matches join the filter's index, which holds the row id: no lead row read
  // but the page's own.
  it.each([
    ['q + assignedTo', base({ assigneeIds: ['mem_v2'], words: { any: ['renov'], subject: [], details: [] } })],
    [
      'q + $sort[updatedAt]=-1',
      base({ words: { any: ['solar'], subject: [], details: [] } }, { sort: [{ field: 'updatedAt', direction: -1 }] }),
    ],
    [
      'q + $sort[budget.amount]=1',
      base(
        { words: { any: ['solar'], subject: [], details: [] } },
        { sort: [{ field: 'budget.amount', direction: 1 }] },
      ),
    ],
  ] as [string, LeadListQuery][])(
    "%s: the matches join the filter's or sort's index, index-only",
    async (_name, query) => {
      for (const statement of await store.leadLists.compile(BIG, query)) {
        const scans = await scansOf(store, statement);
        const shown = JSON.stringify(scans);
        // lead_words (008-lead-words-best) is also probed by its key for the range's first word.
        expect(
          [...new Set(scans.filter((scan) => scan.type === 'Index Only Scan').map((scan) => scan.relation))].sort(),
          shown,
        ).toEqual(['lead_words', 'leads']);
        expect(
          scans.filter(
            (scan) => scan.type !== 'Index Only Scan' && !(scan.index === 'leads_pkey' && scan.rows <= query.limit),
          ),
          shown,
        ).toEqual([]);
      }
    },
  );

  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it.each(CASES)(
    '%s: the first page and the total read leads through an index that serves the filter',
    async (_name, query) => {
      const statements = await store.leadLists.compile(BIG, query);
      expect(statements.length).toBeGreaterThan(0);
      for (const statement of statements) {
        const scans = await scansOf(store, statement);
        const shown = JSON.stringify(scans);
        expect(scans.length, shown).toBeGreaterThan(0);
        expect(
          scans.filter((scan) => scan.type === 'Seq Scan'),
          shown,
        ).toEqual([]);
        // An index that only narrows to the business (then filters every lead of it) is no index for
        // the filter: at most 5% of the business's leads may be read and thrown away.
        expect(
          scans.reduce((sum, scan) => sum + scan.removed, 0),
          shown,
        ).toBeLessThanOrEqual(2_000);
      }
    },
  );
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Rows Removed by Filter'?: number;
  'Actual Loops'?: number;
  'Actual Rows'?: number;
  'Heap Fetches'?: number;
  Plans?: PlanNode[];
}

/** Every node of the plan that reads the leads table (or its live counts): its kind, index, and the rows it read and discarded. */
function leadScans(
  node: PlanNode,
): { type: string; relation?: string; index?: string; removed: number; rows: number; fetches: number }[] {
  // lead_counts (migration 006-lead-counts) answers the totals it covers: a few rows per business, by its key;
  // lead_words (migration 007-lead-words) the free text.
  const loops = node['Actual Loops'] ?? 1;
  const own = ['leads', 'lead_counts', 'lead_words', 'lead_tag_counts'].includes(node['Relation Name'] ?? '')
    ? [
        {
          type: node['Node Type'],
          relation: node['Relation Name'],
          ...(node['Index Name'] && { index: node['Index Name'] }),
          removed: (node['Rows Removed by Filter'] ?? 0) * loops,
          rows: (node['Actual Rows'] ?? 0) * loops,
          fetches: node['Heap Fetches'] ?? 0,
        },
      ]
    : [];
  return [...own, ...(node.Plans ?? []).flatMap(leadScans)];
}

async function scansOf(store: Store, statement: { sql: string; parameters: readonly unknown[] }) {
  const explained = await store.leads.db.executeQuery<{ 'QUERY PLAN': unknown }>(
    CompiledQuery.raw(`explain (analyze, format json) ${statement.sql}`, [...statement.parameters]),
  );
  return leadScans((explained.rows[0]!['QUERY PLAN'] as { Plan: PlanNode }[])[0]!.Plan);
}

/**
 * SQLite (migration 007-lead-words): free text alone reads the word table by its key and, for the page,
 * only its own leads by row id (a plan that scans the leads' index was once chosen for the join).
 */
describe('free-text plans on SQLite (issue 21 item 5)', () => {
  let store: Store;
  beforeAll(async () => {
    store = openStore(configFor('sqlite'));
    await store.migrate();
    const now = Date.now();
    await store.leads.db
      .insertInto('businesses')
      .values({
        url_key: BIG,
        name: BIG,
        country: 'IN',
        currency: 'INR',
        custom_fields_enabled: 0,
        time_zone: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await insertVolume(store.leads.db, BIG, config, { to: 5_000, prefix: 'sb' });
    await sql`analyze`.execute(store.leads.db);
  }, 120_000);
  afterAll(async () => {
    await store?.close();
  });

  it.each(CASES.filter(([name]) => /^(q|subject|details)/.test(name)))(
    '%s: the word table by its key; the page reads its leads by row id',
    async (_name, query) => {
      const [page, count] = await store.leadLists.compile(BIG, query);
      const plan = async (statement: { sql: string; parameters: readonly unknown[] }) =>
        (
          await store.leads.db.executeQuery<{ detail: string }>(
            CompiledQuery.raw(`explain query plan ${statement.sql}`, [...statement.parameters]),
          )
        ).rows.map((row) => row.detail);
      const counted = await plan(count!);
      expect(
        counted.filter((d) => / leads\b/.test(d)),
        counted.join('\n'),
      ).toEqual([]);
      expect(
        counted.filter((d) => /lead_words/.test(d)).every((d) => /^SEARCH lead_words USING PRIMARY KEY/.test(d)),
        counted.join('\n'),
      ).toBe(true);
      const paged = await plan(page!);
      expect(
        paged.filter((d) => / leads\b/.test(d)),
        paged.join('\n'),
      ).toEqual(['SEARCH leads USING INTEGER PRIMARY KEY (rowid=?)']);
    },
  );
});
