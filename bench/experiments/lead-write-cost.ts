// What free text costs a lead write (migrations 006-lead-counts's tsvector + GIN and FTS5, 007-lead-words's
// row per field and word, 008-lead-words-best's row per word): a timed loop of single-row inserts (one statement, its own transaction, as a create
// writes its lead) and of subject edits, through the store's own Kysely connection, on a fresh schema
// migrated to each version. Short leads (a 3-word subject, 12-word details) and long ones (10,000
// characters of details, ~1,400 distinct words). Wall time per statement, ms (p50 / mean).
// Not part of the test suite. Run: npx tsx bench/experiments/lead-write-cost.ts
//   LEAD_WRITE_PG=postgres://postgres@127.0.0.1:5432/crmkit_h_search (databases <name>_w005, _w006, _w007 are made beside it and dropped)
//   LEAD_WRITE_COUNT=300  LEAD_WRITE_STORES=postgres,sqlite  LEAD_WRITE_VERSIONS=006-lead-counts,007-lead-words,008-lead-words-best
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, type Kysely } from 'kysely';
import pg from 'pg';
import { syntheticConfig, volumeLead } from '../leads-volume.js';
import { testConfig } from '../../src/config.js';
import { leadColumns } from '../../src/storage/lead-rows.js';
import { migrations } from '../../src/storage/migrate.js';
import type { Database } from '../../src/storage/schema.js';
import { openStore } from '../../src/storage/store.js';

const COUNT = Number(process.env.LEAD_WRITE_COUNT ?? 300);
const PG = process.env.LEAD_WRITE_PG ?? 'postgres://postgres@127.0.0.1:5432/crmkit_h_search';

/** ~10,000 characters of made-up words (few repeats: the worst case for a word index). */
function longDetails(n: number): string {
  let text = '';
  let x = n * 7919 + 1;
  while (text.length < 9_990) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    text += `${x.toString(36).slice(0, 6)} `;
  }
  return text.slice(0, 10_000);
}

const stats = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return `p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} / mean ${(times.reduce((a, b) => a + b, 0) / times.length).toFixed(2)}`;
};

async function measure(db: Kysely<Database>, label: string): Promise<void> {
  const now = Date.now();
  const { id } = await db
    .insertInto('businesses')
    .values({
      url_key: `lw-${now}`,
      name: 'w',
      country: 'IN',
      currency: 'INR',
      custom_fields_enabled: 0,
      time_zone: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const config = syntheticConfig();
  for (const long of [false, true]) {
    const inserts: number[] = [];
    const edits: number[] = [];
    for (let n = 0; n < COUNT; n++) {
      const lead = volumeLead(n, `${long ? 'l' : 's'}${now.toString(36)}`, config);
      if (long) lead.data.details = longDetails(n);
      const start = process.hrtime.bigint();
      await db
        .insertInto('leads')
        .values({
          business_pk: id,
          lead_id: lead.leadId,
          external_id: lead.externalId,
          removed: 0,
          source: lead.source,
          ...leadColumns(lead),
          create_request: null,
          version: 1,
          created_at: lead.createdAt,
          updated_at: lead.updatedAt,
        })
        .execute();
      inserts.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    for (let n = 0; n < COUNT; n++) {
      const leadId = `${long ? 'l' : 's'}${now.toString(36)}${n.toString(36)}`;
      const start = process.hrtime.bigint();
      await db
        .updateTable('leads')
        .set({ subject: `Edited subject ${n}`, version: 2 })
        .where('lead_id', '=', leadId)
        .execute();
      edits.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    console.log(
      `${label.padEnd(22)} ${long ? 'long details ' : 'short details'}  insert ${stats(inserts)} ms  subject edit ${stats(edits)} ms`,
    );
  }
}

async function run(kind: 'postgres' | 'sqlite', version: string): Promise<void> {
  let url: string | null = null;
  const database = `${new URL(PG).pathname.slice(1)}_w${version.slice(0, 3)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: PG });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  if (kind === 'postgres') {
    await admin(`drop database if exists ${database} with (force)`);
    await admin(`create database ${database}`);
    url = PG.replace(/\/[^/]*$/, `/${database}`);
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'crmkit-lead-write-'));
  const store = openStore(testConfig({ databaseUrl: url, dataDir, pgPoolSize: 1 }));
  try {
    const migrator = new Migrator({
      db: store.leads.db as never,
      provider: { getMigrations: async () => migrations(kind) },
    });
    const { error } = await migrator.migrateTo(version);
    if (error) throw error;
    await measure(store.leads.db, `${kind} ${version}`);
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (kind === 'postgres') await admin(`drop database if exists ${database} with (force)`);
  }
}

for (const kind of (process.env.LEAD_WRITE_STORES ?? 'postgres,sqlite').split(',') as ('postgres' | 'sqlite')[]) {
  for (const version of (process.env.LEAD_WRITE_VERSIONS ?? '006-lead-counts,007-lead-words,008-lead-words-best').split(
    ',',
  ))
    await run(kind, version);
}
