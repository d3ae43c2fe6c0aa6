// EXPLAIN (ANALYZE, BUFFERS) of the free-text statements (page and total) on a kept leads-scale
// PostgreSQL database: buffer counts, which do not depend on the machine's load.
// Run: LEADS_SCALE_PG_NAME=crmkit_leads_scale npx tsx bench/experiments/explain-words.ts
import { CompiledQuery } from 'kysely';
import type { LeadListFilter } from '../../src/storage/lead-lists.records.js';
import { testConfig } from '../../src/config.js';
import { openStore } from '../../src/storage/store.js';

const name = process.env.LEADS_SCALE_PG_NAME ?? 'crmkit_leads_scale';
const admin = process.env.LEADS_SCALE_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const store = openStore(testConfig({ databaseUrl: admin.replace(/\/[^/]*$/, `/${name}`), pgPoolSize: 1 }));
const { url_key: urlKey } = await store.leads.db
  .selectFrom('businesses')
  .select('url_key')
  .where('url_key', 'like', 'scale-%')
  .executeTakeFirstOrThrow();
const words = (any: string[], subject: string[] = [], details: string[] = []) => ({ words: { any, subject, details } });
const CASES: [string, LeadListFilter][] = [
  ['q=solar', words(['solar'])],
  ['q=renov', words(['renov'])],
  ['q=solar panel', words(['solar', 'panel'])],
  ['subject=roofing', words([], ['roofing'])],
  ['details=cabling', words([], [], ['cabling'])],
  [
    'q=solar&pipeline',
    {
      ...words(['solar']),
      pipelineIds: [
        (await store.leads.db.selectFrom('leads').select('pipeline_id').limit(1).executeTakeFirstOrThrow()).pipeline_id,
      ],
    },
  ],
];
for (const [label, filter] of CASES) {
  for (const [i, statement] of (
    await store.leadLists.compile(urlKey, { filter, limit: 10, skip: 0, sort: [] })
  ).entries()) {
    const plan = await store.leads.db.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`explain (analyze, buffers, costs off) ${statement.sql}`, [...statement.parameters]),
    );
    const lines = plan.rows.map((r) => r['QUERY PLAN']);
    const top = lines.find((l) => l.includes('Buffers')) ?? '';
    const time = lines.find((l) => l.startsWith('Execution Time')) ?? '';
    console.log(`${label.padEnd(20)} ${i === 0 ? 'page ' : 'total'} ${top.trim().padEnd(40)} ${time}`);
    if (process.env.VERBOSE) console.log(lines.join('\n'));
  }
}
await store.close();
