import { CompiledQuery, sql, type Kysely, type Selectable } from 'kysely';
import { Batcher, type Outcome } from './batcher.js';
import { directWrites, type WriteRunner } from './group-commit.js';
import { directReads, type ReadRunner } from './shared-reads.js';
import type { StoreKind } from './db.js';
import type {
  ClientLink,
  CreateSettled,
  Decision,
  InsertInvoiceResult,
  InvoiceChange,
  InvoiceInsert,
  InvoiceSettingsRecord,
  LockedInvoice,
  LockedRow,
  NumberRequest,
  StoredInvoice,
  StoredInvoiceText,
  StoredPayment,
} from './invoices.records.js';
import { canName } from './keys.js';
import type { Database, InvoicePaymentsTable, InvoicesTable } from './schema.js';
import { keepIdempotentAnswer } from './idempotency-keys.store.js';
import { writeOutbox, type OutboxRow } from './webhooks.store.js';
import { queueInvoiceMail } from './invoice-mail.store.js';
import { writeAudit } from './audit-lines.js';
import type { AuditEntry } from './records.js';

export type * from './invoices.records.js';

/**
 * Every column an answer needs: all but the create request (1-2 KB of JSON per invoice, read only to
 * compare a create's retry). GET, the change reads, and the find and sync pages select these.
 */
export const INVOICE_ANSWER_COLUMNS = [
  'id',
  'business_pk',
  'invoice_id',
  'invoice_number',
  'client_id',
  'status',
  'currency',
  'total_minor',
  'paid_minor',
  'invoice_date',
  'share_token',
  'content',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof InvoicesTable)[];

export type InvoiceRow = Pick<Selectable<InvoicesTable>, (typeof INVOICE_ANSWER_COLUMNS)[number]>;

/** A row as the record callers see (the create request, compared only on a create's retry, is left unparsed). */
export function storedInvoiceOf(row: InvoiceRow): StoredInvoice {
  return contentParsed(storedInvoiceTextOf(row));
}

/** The record with its content snapshot parsed from the stored text. */
export function contentParsed({ contentText, ...fields }: StoredInvoiceText): StoredInvoice {
  return { ...fields, content: JSON.parse(contentText) as Record<string, unknown> };
}

/** A row with its content snapshot left as the stored JSON text (GET invoice's answer is composed around it). */
export function storedInvoiceTextOf(row: InvoiceRow): StoredInvoiceText {
  return {
    invoiceId: row.invoice_id,
    invoiceNumber: row.invoice_number,
    clientId: row.client_id,
    status: row.status,
    currency: row.currency,
    totalMinor: BigInt(row.total_minor),
    paidMinor: BigInt(row.paid_minor),
    invoiceDate: Number(row.invoice_date),
    shareToken: row.share_token,
    contentText: row.content,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function storedPaymentOf(row: Selectable<InvoicePaymentsTable>, invoiceId: string): StoredPayment {
  return {
    paymentId: row.payment_id,
    invoiceId,
    settledMinor: BigInt(row.settled_minor),
    removed: Number(row.removed) === 1,
    data: JSON.parse(row.data) as Record<string, unknown>,
    createdAt: Number(row.created_at),
  };
}

/** The business as a subquery: an invoice is found only through its own business. */
const businessOf = (db: Kysely<Database>, urlKey: string) =>
  db.selectFrom('businesses').select('businesses.id').where('businesses.url_key', '=', urlKey);

/**
 * Invoice writes and single-invoice reads. Every method takes the business first. A create with a given
 * number for a named client locks no business-wide row: the unique (business, number) index decides its
 * number (and the number-idempotency check). The other creates take the business's invoice_settings row
 * lock first (PostgreSQL: SELECT … FOR UPDATE; SQLite: the one connection holds the transaction), so
 * auto numbers and the buyer's client are decided one create at a time across processes; payments and
 * cancels lock the invoice's row.
 */
export class InvoicesStore {
  /** PostgreSQL: the invoice reads that arrive together, one statement (as client reads are). */
  private readonly batchedReads: Batcher<[string, string], InvoiceRow | undefined> | undefined;

  /**
   * `writes`: SQLite's group commit, which creates share with client and lead writes. `reads`:
   * SQLite's shared read transaction, which invoice reads share with client reads.
   */
  constructor(
    readonly db: Kysely<Database>,
    private readonly kind: StoreKind,
    private readonly writes: WriteRunner = directWrites(db),
    private readonly reads: ReadRunner = directReads(db),
  ) {
    this.batchedReads = kind === 'postgres' ? new Batcher((keys) => this.readBatch(keys)) : undefined;
  }

  /**
   * One invoice, read as a client is: with the reads of the same turn (PostgreSQL: one statement for
   * all of them; SQLite: one read transaction), by a statement compiled once.
   */
  async findInvoice(urlKey: string, invoiceId: string): Promise<StoredInvoice | undefined> {
    const row = await this.readRow(urlKey, invoiceId);
    return row && storedInvoiceOf(row);
  }

  /** The same read, the content snapshot left as its stored JSON text: GET invoice composes its answer around it. */
  async findInvoiceText(urlKey: string, invoiceId: string): Promise<StoredInvoiceText | undefined> {
    const row = await this.readRow(urlKey, invoiceId);
    return row && storedInvoiceTextOf(row);
  }

  private readRow(urlKey: string, invoiceId: string): Promise<InvoiceRow | undefined> {
    if (!canName(urlKey, invoiceId)) return Promise.resolve(undefined);
    if (this.batchedReads) return this.batchedReads.add([urlKey, invoiceId]);
    return this.reads.run(async (db) => {
      const { rows } = await db.executeQuery<InvoiceRow>(CompiledQuery.raw(SQLITE_INVOICE_READ, [urlKey, invoiceId]));
      return rows[0];
    });
  }

  private async readBatch(keys: [string, string][]): Promise<Outcome<InvoiceRow | undefined>[]> {
    const { rows } = await this.db.executeQuery<InvoiceRow & { ordinal: number }>(
      CompiledQuery.raw(POSTGRES_INVOICE_READS, [keys.map(([urlKey]) => urlKey), keys.map(([, id]) => id)]),
    );
    const byRead: (InvoiceRow | undefined)[] = keys.map(() => undefined);
    for (const row of rows) byRead[row.ordinal - 1] = row;
    return byRead.map((row) => ({ value: row }));
  }

  /** Live payments by createdAt, _id; removed ones too when asked. Undefined: no such invoice. */
  async listPayments(urlKey: string, invoiceId: string, includeRemoved: boolean): Promise<StoredPayment[] | undefined> {
    if (!canName(urlKey, invoiceId)) return undefined;
    const invoice = await this.db
      .selectFrom('invoices')
      .select('id')
      .where('business_pk', '=', businessOf(this.db, urlKey))
      .where('invoice_id', '=', invoiceId)
      .executeTakeFirst();
    if (!invoice) return undefined;
    return this.paymentsOf(this.db, Number(invoice.id), invoiceId, includeRemoved);
  }

  private async paymentsOf(
    db: Kysely<Database>,
    invoicePk: number,
    invoiceId: string,
    includeRemoved: boolean,
  ): Promise<StoredPayment[]> {
    let query = db.selectFrom('invoice_payments').selectAll().where('invoice_pk', '=', invoicePk);
    if (!includeRemoved) query = query.where('removed', '=', 0);
    const rows = await query.orderBy('created_at').orderBy('payment_id').execute();
    return rows.map((row) => storedPaymentOf(row, invoiceId));
  }

  /**
   * The invoice, its number, its client (made or matched), its balance and its events: all or nothing.
   *
   * A create with a given number for a named client (no mail) settles without reading first: the
   * extras, then one statement (`settle`) that inserts the invoice unless its number is taken and adds
   * to the client's balance. It holds no business-wide row through its commit, so a business's creates
   * share WAL flushes as client creates do; the series' position is not stored but read by the next
   * auto-number create (the most recently created invoice). A create that needs the series' state (an
   * auto number), a buyer's client (one client per buyer) or the business's key (mail) takes the
   * series lock first instead (`createLocked`), as does any create whose quick settle inserted nothing.
   *
   * SQLite: the create shares the group commit of the writes that arrive with it (one fsync for a
   * turn's creates, as client creates do). A create that throws fails its batch, which GroupCommit
   * replays one write per transaction: the failed create leaves nothing and consumes no number.
   */
  async insertInvoice(urlKey: string, insert: InvoiceInsert): Promise<InsertInvoiceResult> {
    if (this.kind === 'sqlite') return this.writes.run((trx) => this.createSqlite(trx, urlKey, insert));
    return this.createPostgres(urlKey, insert);
  }

  private async createSqlite(
    trx: Kysely<Database>,
    urlKey: string,
    insert: InvoiceInsert,
  ): Promise<InsertInvoiceResult> {
    await this.holdWriteLock(trx);
    const settled = settledUnread(insert);
    if (settled) {
      // The write lock is the transaction's: settling first lets a settle that inserted nothing leave nothing.
      if (await this.settle(trx, urlKey, insert, settled)) {
        await this.writeExtras(trx, insert, settled, null);
        return inserted(insert, settled);
      }
    }
    return this.createLocked(trx, urlKey, insert);
  }

  private async createPostgres(urlKey: string, insert: InvoiceInsert): Promise<InsertInvoiceResult> {
    const settled = settledUnread(insert);
    if (settled) {
      const events = insert.events(settled);
      if (!hasExtras(insert, events)) {
        // One statement, its own transaction: it holds no business-wide row (docs/decisions.md).
        if (await this.settle(this.db, urlKey, insert, settled)) return inserted(insert, settled);
      } else {
        const done = await this.db
          .transaction()
          .execute(async (trx) => {
            await this.writeExtras(trx, insert, settled, null, events);
            if (!(await this.settle(trx, urlKey, insert, settled))) throw SETTLE_AGAIN;
            return true;
          })
          .catch(settleAgain);
        if (done) return inserted(insert, settled);
      }
    }
    // A given number that a create settling without the series lock took meanwhile rolls this back; the
    // next attempt finds it stored and answers it (4.1).
    for (let attempt = 1; ; attempt += 1) {
      const result = await this.db
        .transaction()
        .execute((trx) => this.createLocked(trx, urlKey, insert))
        .catch(settleAgain);
      if (result) return result;
      if (attempt === LOCKED_ATTEMPTS) throw new Error('invoice number taken on every locked attempt');
    }
  }

  /**
   * The create with the business's series locked from its start: an auto number (autos take turns), a
   * new buyer (one client per buyer), mail, or a given number whose quick settle inserted nothing. The
   * invoice is settled before the extras are written, since its number is known only then: an auto
   * candidate taken by a given-number create still in flight (it holds no lock but the number's index
   * entry) makes the settle wait for that create's commit and insert nothing, and the next one is tried.
   */
  private async createLocked(
    trx: Kysely<Database>,
    urlKey: string,
    insert: InvoiceInsert,
  ): Promise<InsertInvoiceResult> {
    const found = await trx.selectFrom('businesses').select('id').where('url_key', '=', urlKey).executeTakeFirst();
    if (!found) return { outcome: 'no-business' } as const;
    const businessPk = Number(found.id);
    const series = await this.lockSeries(trx, businessPk);
    let number = await this.assignNumber(trx, businessPk, insert.number, series);
    if ('existing' in number) return { outcome: 'exists', ...number.existing } as const;
    let settled = await this.linkClient(trx, businessPk, insert.client, insert.invoice.createdAt, number.value);
    while (!(await this.settle(trx, urlKey, insert, settled))) {
      // A given number settled by a create without the lock since assignNumber read it: answer it (4.1).
      if ('given' in insert.number) throw SETTLE_AGAIN;
      number = await this.assignNumber(
        trx,
        businessPk,
        insert.number,
        series,
        insert.number.auto.following(settled.invoiceNumber),
      );
      if ('existing' in number) throw new Error('an auto number cannot be an existing one');
      settled = { ...settled, invoiceNumber: number.value };
    }
    // A saved numbering is spent by the first auto number after it (it started it, or a create came between).
    if ('auto' in insert.number && series.saved)
      await trx
        .updateTable('invoice_settings')
        .set({ series_start: null })
        .where('business_pk', '=', businessPk)
        .execute();
    await this.writeExtras(trx, insert, settled, businessPk);
    return inserted(insert, settled);
  }

  /** The outbox rows, the mail, the Idempotency-Key's answer and the audit line of a create settled as `settled`. */
  private async writeExtras(
    trx: Kysely<Database>,
    insert: InvoiceInsert,
    settled: CreateSettled,
    businessPk: number | null,
    events: OutboxRow[] = insert.events(settled),
  ): Promise<void> {
    await writeOutbox(trx, events);
    if (insert.mail)
      await queueInvoiceMail(trx, {
        businessPk: businessPk!,
        invoiceId: insert.invoice.invoiceId,
        recipients: insert.mail,
        at: insert.invoice.createdAt,
      });
    await keepIdempotentAnswer(trx, insert.answer, { invoiceNumber: settled.invoiceNumber, client: settled.clientId });
    if (insert.audit) {
      const detail = { ...(insert.audit.detail as object), invoiceNumber: settled.invoiceNumber };
      await writeAudit(trx, { ...insert.audit, detail });
    }
  }

  /**
   * Inserts the invoice under `settled.invoiceNumber` and adds to the client's balance; false, with
   * nothing written, when the number is taken (PostgreSQL: by a create in flight, once it commits) or
   * the business does not exist. It locks no business-wide row: the series' position is the business's
   * most recently created invoice itself (docs/decisions.md). PostgreSQL: one statement; SQLite: two.
   */
  private async settle(
    db: Kysely<Database>,
    urlKey: string,
    insert: InvoiceInsert,
    settled: CreateSettled,
  ): Promise<boolean> {
    const { invoice } = insert;
    const row = [
      urlKey,
      invoice.invoiceId,
      settled.invoiceNumber,
      settled.clientId,
      invoice.status,
      invoice.currency,
      Number(invoice.totalMinor),
      Number(invoice.paidMinor),
      invoice.invoiceDate,
      invoice.shareToken,
      JSON.stringify(invoice.content),
      JSON.stringify(invoice.createRequest),
      invoice.createdAt,
      invoice.updatedAt,
    ];
    if (this.kind === 'postgres') {
      const { rows } = await db.executeQuery<{ inserted: number }>(
        CompiledQuery.raw(POSTGRES_SETTLE, [...row, insert.balanceE4]),
      );
      return rows[0]!.inserted > 0;
    }
    const { rows } = await db.executeQuery<{ business_pk: number }>(
      CompiledQuery.raw(SQLITE_SETTLE_INVOICE, [...row.slice(1), urlKey]),
    );
    if (rows.length === 0) return false;
    const businessPk = Number(rows[0]!.business_pk);
    if (insert.balanceE4 !== null)
      await db.executeQuery(CompiledQuery.raw(SQLITE_SETTLE_BALANCE, [insert.balanceE4, businessPk, settled.clientId]));
    return true;
  }

  /**
   * SQLite: the write lock from the transaction's first statement. A transaction that reads first and
   * writes later fails with SQLITE_BUSY when another process (several servers on one file) wrote in
   * between, since its snapshot cannot be upgraded; an UPDATE that matches nothing takes the lock and
   * busy_timeout queues the rest, as PostgreSQL's row locks do (4.9). PostgreSQL: the row locks below.
   */
  private async holdWriteLock(trx: Kysely<Database>): Promise<void> {
    if (this.kind === 'sqlite') await sql`update invoice_settings set updated_at = updated_at where 0`.execute(trx);
  }

  /**
   * The business's settings row, made if missing, and locked for the rest of the transaction (auto
   * numbers take turns), and the series' state as it stands (`seriesStateOf`); `saved`: a numbering
   * is saved, started or not (the create clears it).
   */
  private async lockSeries(trx: Kysely<Database>, businessPk: number): Promise<SeriesState & { saved: boolean }> {
    await trx
      .insertInto('invoice_settings')
      .values({ business_pk: businessPk, doc: null, last_number: null, series_start: null, updated_at: 0 })
      .onConflict((oc) => oc.column('business_pk').doNothing())
      .execute();
    let query = trx
      .selectFrom('invoice_settings')
      .select(['series_start', 'last_number'])
      .where('business_pk', '=', businessPk);
    if (this.kind === 'postgres') query = query.forUpdate();
    const row = await query.executeTakeFirstOrThrow();
    return { ...seriesStateOf(row, await mostRecentNumber(trx, businessPk)), saved: row.series_start !== null };
  }

  /**
   * A given number that is taken answers the stored invoice; an auto number skips taken candidates,
   * from `from` (default: the series' first candidate).
   */
  private async assignNumber(
    trx: Kysely<Database>,
    businessPk: number,
    request: NumberRequest,
    state: SeriesState,
    from?: string,
  ): Promise<{ existing: { invoice: StoredInvoice; createRequest: unknown } } | { value: string }> {
    const taken = (number: string) =>
      trx
        .selectFrom('invoices')
        .selectAll()
        .where('business_pk', '=', businessPk)
        .where('invoice_number', '=', number)
        .executeTakeFirst();
    if ('given' in request) {
      const row = await taken(request.given);
      return row
        ? { existing: { invoice: storedInvoiceOf(row), createRequest: JSON.parse(row.create_request) as unknown } }
        : { value: request.given };
    }
    let candidate = from ?? request.auto.first(state);
    while (await taken(candidate)) candidate = request.auto.following(candidate);
    return { value: candidate };
  }

  /** The named client, the live client an earlier invoice made for this buyer, or a new one. */
  private async linkClient(
    trx: Kysely<Database>,
    businessPk: number,
    link: ClientLink,
    now: number,
    invoiceNumber: string,
  ): Promise<CreateSettled> {
    const settled = (clientId: string, createdClient: boolean) => ({ invoiceNumber, clientId, createdClient });
    // The named client was read (active) before the create; settle finds it by its key for the balance.
    if (link.kind === 'existing') return settled(link.clientId, false);
    const match = await trx
      .selectFrom('invoice_buyers')
      .innerJoin('clients', 'clients.id', 'invoice_buyers.client_pk')
      .select(['clients.id', 'clients.client_id'])
      .where('invoice_buyers.business_pk', '=', businessPk)
      .where('invoice_buyers.match_key', '=', link.matchKey)
      .where('clients.status', '=', 'active')
      .orderBy('clients.id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (match) return settled(match.client_id!, false);
    const { clientId, data } = link.newClient;
    const row = await trx
      .insertInto('clients')
      .values({
        business_pk: businessPk,
        client_id: clientId,
        status: 'active',
        source: 'INVOICE',
        data: JSON.stringify(data),
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('invoice_buyers')
      .values({ client_pk: Number(row.id), business_pk: businessPk, match_key: link.matchKey })
      .execute();
    return settled(clientId, true);
  }

  /**
   * A change to one invoice decided against its locked row and live payments (a cancel, a payment's
   * removal): concurrent changes apply one after the other, each seeing the one before. `decide` is pure
   * (it runs no query); undefined: no such invoice.
   */
  changeInvoice<T>(
    urlKey: string,
    invoiceId: string,
    decide: (locked: LockedInvoice) => Decision<T>,
  ): Promise<T | undefined> {
    return this.change(urlKey, invoiceId, true, decide);
  }

  /** The same, decided against the locked row alone (a payment): the invoice's payments are not read. */
  changeInvoiceRow<T>(
    urlKey: string,
    invoiceId: string,
    decide: (locked: LockedRow) => Decision<T>,
  ): Promise<T | undefined> {
    return this.change(urlKey, invoiceId, false, decide);
  }

  /**
   * SQLite: in the group commit of the writes that arrive with it (one fsync for a turn's payments, as
   * creates share theirs); a decision that runs again when its batch is replayed decides on the row as
   * it is then. PostgreSQL: its own transaction, the row locked by the read.
   */
  private change<T>(
    urlKey: string,
    invoiceId: string,
    withPayments: boolean,
    decide: (locked: LockedInvoice) => Decision<T>,
  ): Promise<T | undefined> {
    if (!canName(urlKey, invoiceId)) return Promise.resolve(undefined);
    const work = (trx: Kysely<Database>) => this.changeLocked(trx, urlKey, invoiceId, withPayments, decide);
    if (this.kind === 'sqlite') return this.writes.run(work);
    return this.db.transaction().execute(work);
  }

  private async changeLocked<T>(
    trx: Kysely<Database>,
    urlKey: string,
    invoiceId: string,
    withPayments: boolean,
    decide: (locked: LockedInvoice) => Decision<T>,
  ): Promise<T | undefined> {
    await this.holdWriteLock(trx);
    const lock = this.kind === 'postgres' ? POSTGRES_INVOICE_LOCK : SQLITE_INVOICE_LOCK;
    const { rows } = await trx.executeQuery<InvoiceRow>(CompiledQuery.raw(lock, [urlKey, invoiceId]));
    const row = rows[0];
    if (!row) return undefined;
    const invoicePk = Number(row.id);
    const decision = decide({
      invoice: storedInvoiceTextOf(row),
      livePayments: withPayments ? await this.paymentsOf(trx, invoicePk, invoiceId, false) : [],
    });
    if ('change' in decision) await this.apply(trx, invoicePk, Number(row.business_pk), row.client_id, decision.change);
    return decision.answer;
  }

  /**
   * The balance, the invoice's row and a new payment by statements written once: PostgreSQL one (its
   * statement triggers fire after it, the invoice's rollups before the payment's, as when they were
   * two statements), SQLite three. The client's balance is moved before the invoice's own rows: a create
   * moves the balance and then, by its statement's triggers, the report rollups, so a change that took
   * the rollups first and the balance after could hold what a create of the same client waits for, and
   * one of the two was aborted as a deadlock (test/process/invoices.concurrency.test.ts, creates and cancels).
   */
  private async apply(
    trx: Kysely<Database>,
    invoicePk: number,
    businessPk: number,
    clientId: string,
    change: InvoiceChange,
  ): Promise<void> {
    const { invoice, addPayment: p } = change;
    const invoiceRow = [invoice.status, Number(invoice.paidMinor), invoice.updatedAt];
    const payment = p ? [p.paymentId, Number(p.settledMinor), JSON.stringify(p.data), p.createdAt] : [null, 0, '', 0];
    if (this.kind === 'postgres') {
      const members = [change.balance.map((b) => b.member), change.balance.map((b) => b.e4)];
      await trx.executeQuery(
        CompiledQuery.raw(POSTGRES_APPLY, [invoicePk, businessPk, clientId, ...members, ...invoiceRow, ...payment]),
      );
    } else {
      for (const { member, e4 } of change.balance)
        await trx.executeQuery(CompiledQuery.raw(SQLITE_ADD_TO_BALANCE, [member, e4, businessPk, clientId]));
      await trx.executeQuery(CompiledQuery.raw(SQLITE_UPDATE_INVOICE, [...invoiceRow, invoicePk]));
      if (p) await trx.executeQuery(CompiledQuery.raw(SQLITE_ADD_PAYMENT, [invoicePk, ...payment]));
    }
    if (change.removePaymentIds && change.removePaymentIds.length > 0) {
      await trx
        .updateTable('invoice_payments')
        .set({ removed: 1 })
        .where('invoice_pk', '=', invoicePk)
        .where('payment_id', 'in', change.removePaymentIds)
        .execute();
    }
    await writeOutbox(trx, change.events);
    await keepIdempotentAnswer(trx, change.answer);
    if (change.audit) await writeAudit(trx, change.audit);
  }

  /**
   * Read by every create (its billing details and terms): with the turn's reads on SQLite, and by a
   * statement written once (not built per call) on both stores.
   */
  async getSettings(urlKey: string): Promise<InvoiceSettingsRecord | undefined> {
    const sqlText = this.kind === 'postgres' ? POSTGRES_SETTINGS_READ : SQLITE_SETTINGS_READ;
    const { rows } = await this.reads.run((db) =>
      db.executeQuery<{ doc: string | null; series_start: string | null }>(CompiledQuery.raw(sqlText, [urlKey])),
    );
    const row = rows[0];
    return row && { doc: row.doc === null ? null : (JSON.parse(row.doc) as unknown), seriesStart: row.series_start };
  }

  /** The series' state as an auto-number create now would read it (the number preview's); undefined: no business. */
  async seriesState(urlKey: string): Promise<SeriesState | undefined> {
    const found = await this.db.selectFrom('businesses').select('id').where('url_key', '=', urlKey).executeTakeFirst();
    if (!found) return undefined;
    const businessPk = Number(found.id);
    const settings = await this.db
      .selectFrom('invoice_settings')
      .select(['series_start', 'last_number'])
      .where('business_pk', '=', businessPk)
      .executeTakeFirst();
    const row = settings ?? { series_start: null, last_number: null };
    return seriesStateOf(row, await mostRecentNumber(this.db, businessPk));
  }

  /**
   * Replaces the settings document; a numbering in it (seriesStart) restarts the series at the next auto
   * number unless an invoice is created before it: the row keeps the most recent invoice's number at the
   * save (`last_number`), read after the row is locked so no auto-number create settles in between.
   */
  async putSettings(
    urlKey: string,
    doc: unknown,
    seriesStart: string | null,
    now: number,
    audit: AuditEntry | null,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await this.holdWriteLock(trx);
      const found = await trx.selectFrom('businesses').select('id').where('url_key', '=', urlKey).executeTakeFirst();
      if (!found) return false;
      const businessPk = Number(found.id);
      const values = { doc: JSON.stringify(doc), series_start: seriesStart, updated_at: now };
      await trx
        .insertInto('invoice_settings')
        .values({ business_pk: businessPk, last_number: null, ...values })
        .onConflict((oc) => oc.column('business_pk').doUpdateSet(values))
        .execute();
      await trx
        .updateTable('invoice_settings')
        .set({ last_number: await mostRecentNumber(trx, businessPk) })
        .where('business_pk', '=', businessPk)
        .execute();
      if (audit) await writeAudit(trx, audit);
      return true;
    });
  }
}

/**
 * The series' state from the settings row and the most recent invoice's number: a saved numbering
 * starts the series only while no invoice was created after it was saved, i.e. while the most recent
 * invoice is still the one it was saved after (`last_number`, null for none; numbers are unique).
 */
function seriesStateOf(
  row: { series_start: string | null; last_number: string | null },
  mostRecent: string | null,
): SeriesState {
  const pending = row.series_start !== null && row.last_number === mostRecent;
  return { lastNumber: mostRecent, seriesStart: pending ? row.series_start : null };
}

/**
 * The number of the business's most recently created invoice, as the find's default order has it
 * (createdAt, then _id, descending; the index `invoices_business_created`): what an auto number continues.
 */
async function mostRecentNumber(db: Kysely<Database>, businessPk: number): Promise<string | null> {
  const row = await db
    .selectFrom('invoices')
    .select('invoice_number')
    .where('business_pk', '=', businessPk)
    .orderBy('created_at', 'desc')
    .orderBy('invoice_id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.invoice_number ?? null;
}

const SETTINGS_READ = `select s.doc, s.series_start from invoice_settings s
  where s.business_pk = (select b.id from businesses b where b.url_key = `;
const POSTGRES_SETTINGS_READ = `${SETTINGS_READ}$1)`;
const SQLITE_SETTINGS_READ = `${SETTINGS_READ}?)`;

const READ_COLUMNS = INVOICE_ANSWER_COLUMNS.map((column) => `i.${column}`).join(', ');

/** SQLite's read of one invoice: found only through its own business. */
const SQLITE_INVOICE_READ = `select ${READ_COLUMNS} from invoices i
  where i.business_pk = (select b.id from businesses b where b.url_key = ?) and i.invoice_id = ?`;

/**
 * PostgreSQL's read of many invoices at once, as BATCHED_CLIENT_READ (client-batches.ts) reads clients:
 * keys as arrays (one statement text, one prepared plan, for any batch size), `ordinal` naming the read,
 * the lateral subquery kept from being flattened (LIMIT) so each key stays an index lookup.
 */
const POSTGRES_INVOICE_READS = `select k.ordinal::int4 as ordinal, ${READ_COLUMNS}
  from unnest($1::text[], $2::text[]) with ordinality as k(url_key, invoice_id, ordinal)
  cross join lateral (
    select * from invoices i
    where i.business_pk = (select b.id from businesses b where b.url_key = k.url_key) and i.invoice_id = k.invoice_id
    limit 1
  ) i`;

/** A change's read of its invoice, locked (PostgreSQL: the row; SQLite: the transaction holds the write lock). */
const INVOICE_LOCK = `select ${READ_COLUMNS} from invoices i
  where i.business_pk = (select b.id from businesses b where b.url_key = `;
const POSTGRES_INVOICE_LOCK = `${INVOICE_LOCK}$1) and i.invoice_id = $2 for update of i`;
const SQLITE_INVOICE_LOCK = `${INVOICE_LOCK}?) and i.invoice_id = ?`;

/**
 * A change applied on PostgreSQL (see InvoicesStore.apply): the balance members added atomically (no
 * read-modify-write, so concurrent changes never lose an amount), the invoice's status and paid amount,
 * and the payment if there is one ($9 not null).
 */
const POSTGRES_APPLY = `with balance as (
    insert into client_balances (client_pk, member, amount_e4)
    select c.id, m.member, m.e4 from clients c cross join unnest($4::text[], $5::int8[]) as m(member, e4)
    where c.business_pk = $2 and c.client_id = $3
    on conflict (client_pk, member) do update set amount_e4 = client_balances.amount_e4 + excluded.amount_e4
  ),
  invoice as (
    update invoices set status = $6, paid_minor = $7::int8, updated_at = $8::int8 where id = $1 returning id
  )
  insert into invoice_payments (invoice_pk, payment_id, settled_minor, removed, data, created_at)
  select invoice.id, $9, $10::int8, 0, $11, $12::int8 from invoice where $9::text is not null`;

const SQLITE_ADD_TO_BALANCE = `insert into client_balances (client_pk, member, amount_e4)
  select c.id, ?, ? from clients c where c.business_pk = ? and c.client_id = ?
  on conflict (client_pk, member) do update set amount_e4 = client_balances.amount_e4 + excluded.amount_e4`;

const SQLITE_UPDATE_INVOICE = 'update invoices set status = ?, paid_minor = ?, updated_at = ? where id = ?';

const SQLITE_ADD_PAYMENT = `insert into invoice_payments (invoice_pk, payment_id, settled_minor, removed, data, created_at)
  values (?, ?, ?, 0, ?, ?)`;

/**
 * A create's settle on PostgreSQL (see InvoicesStore.settle): the invoice inserted unless its number is
 * taken (a create in flight with the same number makes it wait for that one's commit), and the client's
 * balance moved only if it was. No business-wide row is written: creates of one business share WAL flushes.
 */
const POSTGRES_SETTLE = `with inv as (
    insert into invoices (business_pk, invoice_id, invoice_number, client_id, status, currency, total_minor,
      paid_minor, invoice_date, share_token, content, create_request, created_at, updated_at)
    select b.id, $2, $3, $4, $5, $6, $7::int8, $8::int8, $9::int8, $10, $11, $12, $13::int8, $14::int8
    from businesses b where b.url_key = $1
    on conflict (business_pk, invoice_number) do nothing
    returning business_pk
  ),
  balance as (
    insert into client_balances (client_pk, member, amount_e4)
    select c.id, 'invoice', $15::int8 from clients c
    where $15::int8 is not null and c.business_pk = (select business_pk from inv) and c.client_id = $4
    on conflict (client_pk, member) do update set amount_e4 = client_balances.amount_e4 + excluded.amount_e4
  )
  select count(*)::int4 as inserted from inv`;

/** SQLite's settle, in two statements (its CTEs cannot write); the transaction holds the write lock. */
const SQLITE_SETTLE_INVOICE = `insert into invoices (business_pk, invoice_id, invoice_number, client_id, status, currency,
    total_minor, paid_minor, invoice_date, share_token, content, create_request, created_at, updated_at)
  select b.id, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
  from businesses b where b.url_key = ?
  on conflict (business_pk, invoice_number) do nothing
  returning business_pk`;

const SQLITE_SETTLE_BALANCE = `insert into client_balances (client_pk, member, amount_e4)
  select c.id, 'invoice', ? from clients c where c.business_pk = ? and c.client_id = ?
  on conflict (client_pk, member) do update set amount_e4 = client_balances.amount_e4 + excluded.amount_e4`;

/** Thrown inside a create's transaction to roll back what it wrote before a settle that inserted nothing. */
const SETTLE_AGAIN = Symbol('settle again under the lock');

/** A transaction's error: false for SETTLE_AGAIN (roll back and take the locked way), else thrown on. */
function settleAgain(error: unknown): false {
  if (error === SETTLE_AGAIN) return false;
  throw error;
}

/** Locked attempts of one create: a given number can be taken by a quick settle between two only once. */
const LOCKED_ATTEMPTS = 3;

/** The series as an auto number starts from it: the saved numbering still to start it, else the most recent number. */
type SeriesState = { lastNumber: string | null; seriesStart: string | null };

/**
 * A create settles without reading first only with a given number (an auto number continues the
 * series' state), a client named (a new buyer's client is decided under the lock: one per buyer), and
 * no mail (its row names the business by key).
 */
function settledUnread(insert: InvoiceInsert): CreateSettled | null {
  if (!('given' in insert.number) || insert.client.kind !== 'existing' || insert.mail) return null;
  return { invoiceNumber: insert.number.given, clientId: insert.client.clientId, createdClient: false };
}

/** Rows a create writes besides the invoice, its series and the balance (these need a transaction). */
function hasExtras(insert: InvoiceInsert, events: OutboxRow[]): boolean {
  return events.length > 0 || !!insert.answer || !!insert.audit || !!insert.mail;
}

function inserted(insert: InvoiceInsert, settled: CreateSettled): InsertInvoiceResult {
  return {
    outcome: 'inserted',
    invoice: { ...insert.invoice, invoiceNumber: settled.invoiceNumber, clientId: settled.clientId },
  };
}
