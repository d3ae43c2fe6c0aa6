import { sqliteDriver } from '../../src/storage/sqlite-driver.js';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertVolume, syntheticConfig } from '../../bench/leads-volume.js';
import { migrations } from '../../src/storage/migrate.js';
import { openStore, type Store } from '../../src/storage/store.js';
import type { LeadListQuery } from '../../src/storage/lead-lists.records.js';
import { decodeSyncCursor, encodeSyncCursor, type SyncCursor } from '../../src/storage/sync-pages.js';
import { syncHorizon } from '../../src/storage/sync-positions.js';
import { describeEachStore } from '../helpers/app.js';
import { seedListTenant, type ListTenant } from '../helpers/lead-list-fixture.js';
import { insertLeads, syncSettled } from '../helpers/lead-rows.js';
import {
  POSTGRES_URL,
  availableStores,
  configFor,
  privatePostgresDatabase,
  sessionUrlOf,
  type PrivateDatabase,
} from '../helpers/stores.js';

/**
 * The horizon rule (src/storage/sync-positions.ts, issue 34): a sync never passes a position that a
 * transaction still open may write, so a write that commits late is still read. A transaction is held
 * open on a second connection while the store's sync pages are read.
 */
describeEachStore('sync positions: the horizon rule', (ctx) => {
  let t: ListTenant;
  let a = '';
  let b = '';
  beforeAll(async () => {
    t = await seedListTenant(ctx());
    [a, b] = (
      await insertLeads(
        ctx().store,
        t.urlKey,
        [1, 2].map(() => ({ pipelineId: t.pipelines.Sales!.id, stageId: t.pipelines.Sales!.stages.New! })),
      )
    ).map((l) => l.leadId) as [string, string];
  });
  const db = () => ctx().store.leads.db;
  const position = async (leadId: string) =>
    Number(
      (await db().selectFrom('leads').select('sync_pos').where('lead_id', '=', leadId).executeTakeFirstOrThrow())
        .sync_pos,
    );
  const horizon = async () =>
    Number((await sql<{ h: number }>`select ${syncHorizon(ctx().store.kind)} as h`.execute(db())).rows[0]!.h);
  /** The follow phase from position `after` + 1 on (a key '' excludes nothing at its position). */
  const follow = async (after: number) => {
    const query: LeadListQuery = {
      filter: {},
      limit: 50,
      skip: 0,
      sort: [],
      sync: { cursor: { phase: 'follow', from: null, position: after + 1, key: '' } },
    };
    return (await ctx().store.leadLists.page(t.urlKey, query)).leads.map((lead) => lead.leadId);
  };
  /** Opens a write transaction on a connection of its own, stamps `leadId` in it, and answers its position and how to commit. */
  const holdWrite = async (leadId: string): Promise<{ position: number; commit: () => Promise<void> }> => {
    if (ctx().store.kind === 'postgres') {
      const client = new pg.Client({ connectionString: sessionUrlOf(POSTGRES_URL) });
      await client.connect();
      await client.query('begin');
      const {
        rows: [row],
      } = await client.query('update leads set version = version + 1 where lead_id = $1 returning sync_pos', [leadId]);
      return {
        position: Number(row.sync_pos),
        commit: async () => {
          await client.query('commit');
          await client.end();
        },
      };
    }
    const other = new (sqliteDriver())(join(ctx().config.dataDir, 'crmkit.sqlite'));
    other.exec('begin immediate');
    // A column no word trigger reads: those call functions only the store's own connection registers.
    other.prepare('update leads set version = version + 1 where lead_id = ?').run(leadId);
    // Read back: the stamp is the trigger's, after the statement.
    const { sync_pos } = other.prepare('select sync_pos from leads where lead_id = ?').get(leadId) as {
      sync_pos: number;
    };
    return {
      position: Number(sync_pos),
      commit: async () => {
        other.exec('commit');
        other.close();
      },
    };
  };

  it('a position an open transaction holds is never passed; once it commits, both writes come in position order', async () => {
    const before = Math.max(await position(a), await position(b));
    const held = await holdWrite(a);
    expect(held.position).toBeGreaterThan(before);
    expect(await horizon()).toBeLessThanOrEqual(held.position);
    if (ctx().store.kind === 'postgres') {
      // A later transaction commits first: its position is above the open one's, so it waits behind it.
      await db().updateTable('leads').set({ subject: 'later' }).where('lead_id', '=', b).execute();
      expect(await position(b)).toBeGreaterThan(held.position);
      expect(await follow(before)).toEqual([]);
    } else {
      expect(await follow(before)).toEqual([]);
    }
    await held.commit();
    if (ctx().store.kind === 'sqlite')
      await db().updateTable('leads').set({ subject: 'later' }).where('lead_id', '=', b).execute();
    await syncSettled(ctx().store, t.urlKey);
    expect(await follow(before)).toEqual([a, b]);
  });

  it('every write moves its row past every position read before it', async () => {
    const before = await position(b);
    await db().updateTable('leads').set({ details: 'again' }).where('lead_id', '=', b).execute();
    expect(await position(b)).toBeGreaterThan(before);
  });
});

it('the cursor: opaque, bound to its scope, and a version-1 cursor reads on as a catch-up from its place', () => {
  const cursors: SyncCursor[] = [
    { phase: 'catch-up', from: null, start: null, after: null },
    { phase: 'catch-up', from: -5, start: 42, after: { updatedAt: 1_700_000_000_000, key: 'ld_x' } },
    { phase: 'follow', from: 7, position: -3, key: 'ld_y' },
  ];
  for (const cursor of cursors) {
    expect(decodeSyncCursor(encodeSyncCursor(cursor, 'leads:a'), 'leads:a')).toEqual(cursor);
    expect(decodeSyncCursor(encodeSyncCursor(cursor, 'leads:a'), 'leads:b')).toBe('foreign');
  }
  const legacy = Buffer.from(JSON.stringify([1, tagOf('leads:a'), 5, 'ld_z'])).toString('base64url');
  expect(decodeSyncCursor(legacy, 'leads:a')).toEqual({
    phase: 'catch-up',
    from: null,
    start: null,
    after: { updatedAt: 5, key: 'ld_z' },
  });
  for (const bad of [
    '',
    'x',
    Buffer.from('[2,"t","f",null,1.5,"k"]').toString('base64url'),
    Buffer.from('[3]').toString('base64url'),
  ]) {
    expect(decodeSyncCursor(bad, 'leads:a')).toBe('malformed');
  }
});

function tagOf(scope: string): string {
  return (
    JSON.parse(
      Buffer.from(
        encodeSyncCursor({ phase: 'follow', from: null, position: 0, key: 'k' }, scope),
        'base64url',
      ).toString(),
    ) as unknown[]
  )[1] as string;
}

describe.each(await availableStores())('migration 011-sync-positions on existing leads [%s]', (kind) => {
  let database: PrivateDatabase | undefined;
  let store: Store | undefined;
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it('numbers the leads already there below every new position, in their old sync order (updatedAt, leadId)', async () => {
    database = kind === 'postgres' ? await privatePostgresDatabase('crm_syncpos') : undefined;
    store = openStore(configFor(kind, database ? { databaseUrl: database.url } : {}));
    const db = store.leads.db;
    const migrator = new Migrator({ db: db as never, provider: { getMigrations: async () => migrations(kind) } });
    expect((await migrator.migrateTo('009-outbox-claims')).error).toBeUndefined();
    const now = Date.now();
    await db
      .insertInto('businesses')
      .values({
        url_key: 'syncpos-a',
        name: 'a',
        country: 'IN',
        currency: 'INR',
        custom_fields_enabled: 0,
        time_zone: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await insertVolume(db, 'syncpos-a', syntheticConfig(), { to: 400, prefix: 'sp' });
    await store.migrate();
    const order = async (by: string) =>
      (await sql.raw<{ lead_id: string }>(`select lead_id from leads order by ${by}`).execute(db)).rows.map(
        (r) => r.lead_id,
      );
    expect(await order('sync_pos')).toEqual(await order('updated_at, lead_id'));
    const {
      rows: [range],
    } = await sql<{
      low: number;
      high: number;
      n: number;
    }>`select min(sync_pos) as low, max(sync_pos) as high, count(distinct sync_pos) as n from leads`.execute(db);
    expect([Number(range!.low), Number(range!.high), Number(range!.n)]).toEqual([-400, -1, 400]);
    await db
      .updateTable('leads')
      .set({ subject: 'after the migration' })
      .where('lead_id', '=', (await order('sync_pos'))[0]!)
      .execute();
    expect((await order('sync_pos')).length).toBe(400);
    const {
      rows: [moved],
    } = await sql<{ p: number }>`select max(sync_pos) as p from leads`.execute(db);
    expect(Number(moved!.p)).toBeGreaterThan(0);
  }, 120_000);

  it.runIf(kind === 'postgres')(
    'after a restore into a new cluster (positions above the transaction ids), the next start moves new positions above them',
    async () => {
      const db = store!.leads.db;
      // What a restore looks like: a stored position far above this cluster's transaction ids.
      const restored = Number(
        (await sql<{ p: number }>`select sync_position() + 1000000000 as p`.execute(db)).rows[0]!.p,
      );
      const [first, second] = (
        await sql<{ lead_id: string }>`select lead_id from leads order by sync_pos limit 2`.execute(db)
      ).rows;
      await db.transaction().execute(async (trx) => {
        await sql`alter table leads disable trigger user`.execute(trx);
        await sql`update leads set sync_pos = ${restored} where lead_id = ${first!.lead_id}`.execute(trx);
        await sql`alter table leads enable trigger user`.execute(trx);
      });
      await store!.migrate();
      await db
        .updateTable('leads')
        .set({ subject: 'after the restore' })
        .where('lead_id', '=', second!.lead_id)
        .execute();
      const after = Number(
        (
          await db
            .selectFrom('leads')
            .select('sync_pos')
            .where('lead_id', '=', second!.lead_id)
            .executeTakeFirstOrThrow()
        ).sync_pos,
      );
      expect(after).toBeGreaterThan(restored);
    },
  );
});
