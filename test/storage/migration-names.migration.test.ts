import { afterAll, describe, expect, it } from 'vitest';
import { Migrator, sql } from 'kysely';
import { FORMER_NAMES, migrations } from '../../src/storage/migrate.js';
import { openStore, type Store } from '../../src/storage/store.js';
import { availableStores, configFor, privatePostgresDatabase, type PrivateDatabase } from '../helpers/stores.js';

/**
 * Issue 35 numbered the migrations uniquely (001-009; two shared 002 before). A database migrated by an
 * older build records the former names: the new build must start on it, run nothing twice, and keep its data.
 */
describe.each(await availableStores())('migrations recorded under their former names start cleanly [%s]', (kind) => {
  let database: PrivateDatabase | undefined;
  let store: Store | undefined;
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it("an older build's database is renamed in place: every migration applied, in order, none run again", async () => {
    database = kind === 'postgres' ? await privatePostgresDatabase('crm_migration_names') : undefined;
    store = openStore(configFor(kind, database ? { databaseUrl: database.url } : {}));
    const db = store.leads.db;
    const formerOf = Object.fromEntries(Object.entries(FORMER_NAMES).map(([former, now]) => [now, former]));
    const asBefore = Object.fromEntries(
      Object.entries(migrations(kind)).map(([name, migration]) => [formerOf[name] ?? name, migration]),
    );
    const older = new Migrator({ db: db as never, provider: { getMigrations: async () => asBefore } });
    expect((await older.migrateToLatest()).error).toBeUndefined();
    const recorded = async () =>
      (
        await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration
      order by timestamp, name`.execute(db)
      ).rows.map((row) => ({ name: row.name, at: String(row.timestamp) }));
    const before = await recorded();
    expect(before.map((row) => row.name)).toEqual(Object.keys(asBefore));
    await db
      .insertInto('businesses' as never)
      .values({
        url_key: 'kept',
        name: 'Kept',
        country: 'IN',
        currency: 'INR',
        custom_fields_enabled: 0,
        time_zone: null,
        created_at: 1,
        updated_at: 1,
      } as never)
      .execute();

    await store.migrate();
    const after = await recorded();
    // The same rows at the same times, under the new names: renamed, not run again.
    expect(after).toEqual(before.map((row) => ({ ...row, name: FORMER_NAMES[row.name] ?? row.name })));
    expect(after.map((row) => row.name)).toEqual(Object.keys(migrations(kind)));
    expect(await store.accounts.findBusiness('kept')).toMatchObject({ name: 'Kept' });

    await store.migrate(); // a second start: nothing to rename, nothing to run
    expect(await recorded()).toEqual(after);
  }, 120_000);
});
