import { sql } from 'kysely';
import type { Config } from '../config.js';
import { AccountsStore } from './accounts.store.js';
import { ClientListsStore } from './client-lists.store.js';
import { BusinessDataStore } from './business-data.store.js';
import { GroupCommit, directWrites } from './group-commit.js';
import { CHANGE_CHANNEL, ChangeFeed } from './change-feed.js';
import { openPostgres, openSqlite, type OpenDatabase, type StoreKind } from './db.js';
import { migrateToLatest } from './migrate.js';
import { RateLimitStore } from './rate-limits.store.js';
import { LeadListsStore } from './lead-lists.store.js';
import { LeadSettingsStore } from './lead-settings.store.js';
import { LeadsStore } from './leads.store.js';

/** The store behind one small interface: accounts, business data, and the change feed that keeps caches honest. */
export interface Store {
  readonly kind: StoreKind;
  readonly accounts: AccountsStore;
  readonly data: BusinessDataStore;
  readonly clientLists: ClientListsStore;
  readonly rateLimits: RateLimitStore;
  readonly leads: LeadsStore;
  readonly leadLists: LeadListsStore;
  readonly leadSettings: LeadSettingsStore;
  readonly changes: ChangeFeed;
  readonly sqlitePath: string | null;
  /** PostgreSQL only (undefined on the embedded store): for /metrics. */
  poolStats?: () => { total: number; idle: number; waiting: number };
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function openStore(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'pgPoolSize'>): Store {
  const opened: OpenDatabase = config.databaseUrl ? openPostgres(config.databaseUrl, config.pgPoolSize) : openSqlite(config.dataDir);
  const { db } = opened;
  const changes = new ChangeFeed(opened.postgresUrl, async (topic) => {
    await sql`select pg_notify(${CHANGE_CHANNEL}, ${topic})`.execute(db);
  });
  return {
    kind: opened.kind,
    accounts: new AccountsStore(db),
    data: opened.kind === 'sqlite'
      ? new BusinessDataStore(db, new GroupCommit(db), 'shared-transaction')
      : new BusinessDataStore(db, directWrites(db), 'batched-statement'),
    clientLists: new ClientListsStore(db, opened.kind),
    rateLimits: new RateLimitStore(db),
    leads: new LeadsStore(db, opened.kind),
    leadLists: new LeadListsStore(db, opened.kind),
    leadSettings: new LeadSettingsStore(db),
    changes,
    sqlitePath: opened.sqlitePath,
    ...(opened.poolStats && { poolStats: opened.poolStats }),
    async migrate() {
      await migrateToLatest(db as never, opened.kind);
      await changes.start();
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await changes.close();
      await db.destroy();
    },
  };
}
