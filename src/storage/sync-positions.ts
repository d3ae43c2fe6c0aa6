import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { StoreKind } from './db.js';

/**
 * Change positions: the order a sync reads a table's rows in (leads-interface 4.4, invoices-interface
 * 4.3), such that whatever a sync has passed can no longer be overtaken by a later commit. Any table
 * can carry them: a `sync_pos` column, stamped by the triggers `installSyncPositions` creates on every
 * insert and update (so no write path can forget it), read by a sync page through `syncVisible`.
 * docs/decisions.md "Sync positions" gives the reasoning and the cost.
 *
 * PostgreSQL: the position is the id of the writing transaction (`pg_current_xact_id()`, 64 bits,
 * never wrapping) plus a shift (below). Ids are handed out in start order, not commit order, so a
 * reader holds back every position at or above its snapshot's xmin, the oldest transaction still
 * running: everything below has committed (or aborted) and is visible to the very statement reading
 * it, and every transaction that has not committed yet, or has not started, writes positions at or
 * above that horizon. A sync page therefore never passes a position that a later commit could take.
 *
 * SQLite: writers commit one at a time, and a writer takes its position from a counter inside its
 * write transaction, so every uncommitted position is above every committed one: no horizon.
 *
 * The shift (PostgreSQL): a database restored from a dump into a new cluster starts its transaction
 * ids low again, below the positions the restored rows carry. `repairSyncPositions` (run at every
 * start, after the migrations) raises the shift so that new positions start above every stored one.
 */

/** The one-row table behind positions: PostgreSQL's shift, SQLite's last position handed out. */
export const SYNC_CLOCK = 'sync_clock';

/** Creates the clock and the position functions (once, by the first migration that uses them). */
export async function createSyncClock(db: Kysely<unknown>, kind: StoreKind): Promise<void> {
  await sql
    .raw(`create table ${SYNC_CLOCK} (id integer primary key check (id = 1), value bigint not null)`)
    .execute(db);
  await sql.raw(`insert into ${SYNC_CLOCK} (id, value) values (1, 0)`).execute(db);
  if (kind !== 'postgres') return;
  await sql
    .raw(`create function sync_position() returns bigint language sql volatile as $$
    select pg_current_xact_id()::text::bigint + (select value from ${SYNC_CLOCK}) $$`)
    .execute(db);
  await sql
    .raw(`create function sync_horizon() returns bigint language sql stable as $$
    select pg_snapshot_xmin(pg_current_snapshot())::text::bigint + (select value from ${SYNC_CLOCK}) $$`)
    .execute(db);
  await sql
    .raw(`create function sync_position_stamp() returns trigger language plpgsql as $$
    begin new.sync_pos := sync_position(); return new; end $$`)
    .execute(db);
}

/**
 * Adds `sync_pos` to `table`, numbers its existing rows below every future position in the order of
 * `backfillOrder` (the order their syncs read them in before), stamps every later insert and update,
 * and indexes `indexColumns` (the sync page's key, e.g. `business_pk, sync_pos, lead_id`).
 */
export async function installSyncPositions(
  db: Kysely<unknown>,
  kind: StoreKind,
  table: string,
  options: { backfillOrder: string; index: { name: string; columns: string; where?: string } },
): Promise<void> {
  await sql.raw(`alter table ${table} add column sync_pos bigint not null default 0`).execute(db);
  // Existing rows: -n .. -1, in their old sync order (before the stamping triggers, which would restamp
  // them). PostgreSQL's statement triggers on the table compare every old row with every new one; none
  // reads sync_pos, so they are off for the backfill (SQLite's name their columns: they do not fire).
  const triggers = (state: 'disable' | 'enable') => sql.raw(`alter table ${table} ${state} trigger user`).execute(db);
  if (kind === 'postgres') await triggers('disable');
  await sql
    .raw(`update ${table} set sync_pos = ordered.pos from (
      select id, row_number() over (order by ${options.backfillOrder}) - count(*) over () - 1 as pos from ${table}) ordered
    where ${table}.id = ordered.id`)
    .execute(db);
  if (kind === 'postgres') await triggers('enable');
  if (kind === 'postgres') {
    await sql
      .raw(`create trigger ${table}_sync_position before insert or update on ${table}
      for each row execute function sync_position_stamp()`)
      .execute(db);
  } else {
    // SQLite cannot change NEW in a BEFORE trigger: the row is stamped right after, in the same transaction.
    // Only a write that did not set sync_pos itself is stamped (and the stamp fires no trigger of its own:
    // every other trigger on these tables names its columns).
    const stamp = (row: string) => `update ${SYNC_CLOCK} set value = value + 1;
      update ${table} set sync_pos = (select value from ${SYNC_CLOCK}) where id = ${row}.id;`;
    await sql
      .raw(`create trigger ${table}_sync_position_insert after insert on ${table} begin ${stamp('new')} end`)
      .execute(db);
    await sql
      .raw(`create trigger ${table}_sync_position_update after update on ${table}
      when new.sync_pos = old.sync_pos begin ${stamp('new')} end`)
      .execute(db);
  }
  const { name, columns, where } = options.index;
  await sql.raw(`create index ${name} on ${table} (${columns})${where ? ` where ${where}` : ''}`).execute(db);
}

/**
 * The sync horizon as one SQL value: every position below it is committed and visible to the statement
 * that reads it, and every write not yet committed takes a position at or above it (PostgreSQL: the
 * snapshot's xmin, a constant of the statement, so an index bound; SQLite: one above the last position
 * handed out, as the reader's snapshot holds it).
 */
export function syncHorizon(kind: StoreKind): RawBuilder<number> {
  return kind === 'postgres'
    ? sql<number>`sync_horizon()`
    : sql<number>`(select value + 1 from ${sql.raw(SYNC_CLOCK)})`;
}

/** A table with positions, for repairSyncPositions: its name and the condition of its sync index, on the alias `t`. */
export interface SyncedTable {
  table: string;
  live: string;
}

/**
 * PostgreSQL, after a restore into a new cluster (transaction ids start low again): raises the shift so
 * that every new position is above every stored one. At a normal start it is one probe of each table's
 * sync index per business; the whole table is read only when a live row's position is not below the
 * next one (a restore).
 */
export async function repairSyncPositions(
  db: Kysely<unknown>,
  kind: StoreKind,
  tables: readonly SyncedTable[],
): Promise<void> {
  if (kind !== 'postgres') return;
  for (const { table, live } of tables) {
    const {
      rows: [probe],
    } = await sql
      .raw<{ restored: boolean }>(`select coalesce(max(m), 0) >= sync_position() as restored
      from businesses b
      cross join lateral (select max(sync_pos) as m from ${table} t where t.business_pk = b.id and ${live}) x`)
      .execute(db);
    if (!probe?.restored) continue;
    await sql
      .raw(`update ${SYNC_CLOCK}
      set value = value + greatest(0, (select max(sync_pos) from ${table}) - sync_position() + 1)`)
      .execute(db);
  }
}
