import { sql } from 'kysely';
import { usesPreparedStatements, type Config } from '../config.js';
import { AccountsStore } from './accounts.store.js';
import { ClientListsStore } from './client-lists.store.js';
import { BusinessDataStore } from './business-data.store.js';
import { GroupCommit, directWrites } from './group-commit.js';
import { IdempotencyKeysStore } from './idempotency-keys.store.js';
import { CHANGE_CHANNEL, ChangeFeed } from './change-feed.js';
import { openPostgres, openSqlite, type OpenDatabase, type StoreKind } from './db.js';
import { migrateToLatest } from './migrate.js';
import { RateLimitStore } from './rate-limits.store.js';
import { SharedReadTransaction } from './shared-reads.js';
import { LeadListsStore } from './lead-lists.store.js';
import { LeadStageTotalsStore } from './lead-stage-totals.store.js';
import { LeadSettingsStore } from './lead-settings.store.js';
import { LeadSavedFiltersStore } from './lead-saved-filters.store.js';
import { LeadsStore } from './leads.store.js';
import { WebhooksStore } from './webhooks.store.js';
import { InvoicesStore } from './invoices.store.js';
import { InvoiceListsStore } from './invoice-lists.store.js';
import { InvoiceMailStore } from './invoice-mail.store.js';
import { ShareLinksStore } from './share-links.store.js';
import { LeadReportsStore } from './reports-leads.store.js';
import { InvoiceReportsStore } from './reports-invoices.store.js';

/** The store behind one small interface: accounts, business data, and the change feed that keeps caches honest. */
export interface Store {
  readonly kind: StoreKind;
  readonly accounts: AccountsStore;
  readonly data: BusinessDataStore;
  readonly clientLists: ClientListsStore;
  readonly rateLimits: RateLimitStore;
  readonly leads: LeadsStore;
  readonly leadLists: LeadListsStore;
  readonly leadStageTotals: LeadStageTotalsStore;
  readonly leadSettings: LeadSettingsStore;
  readonly leadSavedFilters: LeadSavedFiltersStore;
  readonly webhooks: WebhooksStore;
  readonly invoices: InvoicesStore;
  readonly invoiceLists: InvoiceListsStore;
  /** The invoice mail outbox (docs/invoice-documents.md "E-mail"). */
  readonly invoiceMail: InvoiceMailStore;
  /** Invoice share tokens: the public page's lookup and the operator's revocation. */
  readonly shareLinks: ShareLinksStore;
  /** Report aggregates (src/reports/). */
  readonly leadReports: LeadReportsStore;
  readonly invoiceReports: InvoiceReportsStore;
  /** Idempotency-Key claims and kept answers (invoices-interface 4.2). */
  readonly idempotencyKeys: IdempotencyKeysStore;
  readonly changes: ChangeFeed;
  readonly sqlitePath: string | null;
  /** PostgreSQL only (undefined on the embedded store): for /metrics. */
  poolStats?: () => { total: number; idle: number; waiting: number };
  migrate(): Promise<void>;
  ping(): Promise<void>;
  /** `stage` times each part of the close under a name (src/ops/shutdown-stages.ts); by default each just runs. */
  close(stage?: CloseStage): Promise<void>;
}

/** Runs one part of a close under a name. */
export type CloseStage = (name: string, work: () => Promise<void>) => Promise<void>;
const justRun: CloseStage = (_name, work) => work();

type StoreConfig = Pick<Config, 'databaseUrl' | 'dataDir' | 'pgPoolSize'> &
  Partial<Pick<Config, 'databaseDirectUrl' | 'databasePrepared'>>;

function open(config: StoreConfig): OpenDatabase {
  if (!config.databaseUrl) return openSqlite(config.dataDir);
  const direct = {
    databaseDirectUrl: config.databaseDirectUrl ?? null,
    databasePrepared: config.databasePrepared ?? 'auto',
  };
  return openPostgres(config.databaseUrl, config.pgPoolSize, {
    directUrl: direct.databaseDirectUrl,
    prepared: usesPreparedStatements(direct),
  });
}

export function openStore(config: StoreConfig): Store {
  const opened = open(config);
  const { db } = opened;
  const changes = new ChangeFeed(opened.postgresUrl, async (topic) => {
    await sql`select pg_notify(${CHANGE_CHANNEL}, ${topic})`.execute(db);
  });
  // SQLite: one group commit for client, lead and invoice creates alike (one fsync for the writes of
  // a turn), and one read transaction for the point reads of a turn.
  const leadLists = new LeadListsStore(db, opened.kind);
  const embedded =
    opened.kind === 'sqlite' ? { writes: new GroupCommit(db), reads: new SharedReadTransaction(db) } : undefined;
  return {
    kind: opened.kind,
    accounts: new AccountsStore(db),
    data: embedded
      ? new BusinessDataStore(db, embedded.writes, embedded.reads)
      : new BusinessDataStore(db, directWrites(db), 'batched-statement'),
    clientLists: new ClientListsStore(db, opened.kind),
    rateLimits: new RateLimitStore(db),
    leads: new LeadsStore(db, opened.kind, embedded?.writes, embedded?.reads),
    leadLists,
    leadStageTotals: new LeadStageTotalsStore(db, opened.kind, leadLists),
    leadSettings: new LeadSettingsStore(db),
    leadSavedFilters: new LeadSavedFiltersStore(db),
    webhooks: new WebhooksStore(db, opened.kind),
    invoices: embedded
      ? new InvoicesStore(db, opened.kind, embedded.writes, embedded.reads)
      : new InvoicesStore(db, opened.kind),
    invoiceLists: new InvoiceListsStore(db, opened.kind),
    invoiceMail: new InvoiceMailStore(db, opened.kind),
    shareLinks: new ShareLinksStore(db),
    leadReports: new LeadReportsStore(db, opened.kind),
    invoiceReports: new InvoiceReportsStore(db, opened.kind),
    idempotencyKeys: new IdempotencyKeysStore(db),
    changes,
    sqlitePath: opened.sqlitePath,
    ...(opened.poolStats && { poolStats: opened.poolStats }),
    async migrate() {
      await migrateWithSession(opened, config);
      await changes.start();
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close(stage = justRun) {
      await stage('change feed (LISTEN connection)', () => changes.close());
      await stage('database pool', () => db.destroy());
    },
  };
}

/**
 * The migration lock is PostgreSQL's advisory lock, held by a session: through a transaction-mode pooler
 * it would be held by whichever server connection the pooler lent, so migrations take the direct
 * connection when there is one (one connection, closed once the schema is current).
 */
async function migrateWithSession(opened: OpenDatabase, config: StoreConfig): Promise<void> {
  if (opened.kind === 'sqlite' || !config.databaseDirectUrl) {
    await migrateToLatest(opened.db as never, opened.kind);
    return;
  }
  const direct = openPostgres(config.databaseDirectUrl, 1, { prepared: false });
  try {
    await migrateToLatest(direct.db as never, 'postgres');
  } finally {
    await direct.db.destroy();
  }
}
