import { sql, type Kysely, type Selectable } from 'kysely';
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
  NumberRequest,
  StoredInvoice,
  StoredPayment,
} from './invoices.records.js';
import { canName } from './keys.js';
import type { Database, InvoicePaymentsTable, InvoicesTable } from './schema.js';
import { keepIdempotentAnswer } from './idempotency-keys.store.js';
import { writeOutbox } from './webhooks.store.js';
import { queueInvoiceMail } from './invoice-mail.store.js';
import { writeAudit } from './audit-lines.js';
import type { AuditEntry } from './records.js';

export type * from './invoices.records.js';

type InvoiceRow = Selectable<InvoicesTable>;

export function storedInvoiceOf(row: InvoiceRow): StoredInvoice {
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
    content: JSON.parse(row.content) as Record<string, unknown>,
    createRequest: JSON.parse(row.create_request) as unknown,
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
 * Invoice writes and single-invoice reads. Every method takes the business first. A create takes the
 * business's invoice_settings row lock first (PostgreSQL: SELECT … FOR UPDATE; SQLite: the one
 * connection holds the transaction), so numbers, the number-idempotency check and the buyer's client
 * are decided one create at a time across processes; payments and cancels lock the invoice's row.
 */
export class InvoicesStore {
  constructor(
    readonly db: Kysely<Database>,
    private readonly kind: StoreKind,
  ) {}

  async findInvoice(urlKey: string, invoiceId: string): Promise<StoredInvoice | undefined> {
    if (!canName(urlKey, invoiceId)) return undefined;
    const row = await this.db
      .selectFrom('invoices')
      .selectAll()
      .where('business_pk', '=', businessOf(this.db, urlKey))
      .where('invoice_id', '=', invoiceId)
      .executeTakeFirst();
    return row && storedInvoiceOf(row);
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

  /** The invoice, its number, its client (made or matched), its balance and its events: one transaction. */
  async insertInvoice(urlKey: string, insert: InvoiceInsert): Promise<InsertInvoiceResult> {
    return this.db.transaction().execute(async (trx) => {
      await this.holdWriteLock(trx);
      const found = await trx.selectFrom('businesses').select('id').where('url_key', '=', urlKey).executeTakeFirst();
      if (!found) return { outcome: 'no-business' } as const;
      const businessPk = Number(found.id);
      const series = await this.lockSeries(trx, businessPk);
      const number = await this.assignNumber(trx, businessPk, insert.number, series);
      if ('existing' in number) return { outcome: 'exists', invoice: number.existing } as const;
      const { clientPk, settled } = await this.linkClient(
        trx,
        businessPk,
        insert.client,
        insert.invoice.createdAt,
        number.value,
      );
      const { invoice } = insert;
      await trx
        .insertInto('invoices')
        .values({
          business_pk: businessPk,
          invoice_id: invoice.invoiceId,
          invoice_number: number.value,
          client_id: settled.clientId,
          status: invoice.status,
          currency: invoice.currency,
          total_minor: Number(invoice.totalMinor),
          paid_minor: Number(invoice.paidMinor),
          invoice_date: invoice.invoiceDate,
          share_token: invoice.shareToken,
          content: JSON.stringify(invoice.content),
          create_request: JSON.stringify(invoice.createRequest),
          created_at: invoice.createdAt,
          updated_at: invoice.updatedAt,
        })
        .execute();
      await trx
        .updateTable('invoice_settings')
        .set({ last_number: number.value, series_start: null })
        .where('business_pk', '=', businessPk)
        .execute();
      if (insert.balanceE4 !== null) await addToBalance(trx, clientPk, 'invoice', insert.balanceE4);
      await writeOutbox(trx, insert.events(settled));
      if (insert.mail)
        await queueInvoiceMail(trx, {
          businessPk,
          invoiceId: invoice.invoiceId,
          recipients: insert.mail,
          at: invoice.createdAt,
        });
      await keepIdempotentAnswer(trx, insert.answer, { invoiceNumber: number.value, client: settled.clientId });
      if (insert.audit) {
        const detail = { ...(insert.audit.detail as object), invoiceNumber: number.value };
        await writeAudit(trx, { ...insert.audit, detail });
      }
      return {
        outcome: 'inserted',
        invoice: { ...invoice, invoiceNumber: number.value, clientId: settled.clientId },
      } as const;
    });
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

  /** The business's settings row, made if missing, and locked for the rest of the transaction. */
  private async lockSeries(
    trx: Kysely<Database>,
    businessPk: number,
  ): Promise<{ lastNumber: string | null; seriesStart: string | null }> {
    await trx
      .insertInto('invoice_settings')
      .values({ business_pk: businessPk, doc: null, last_number: null, series_start: null, updated_at: 0 })
      .onConflict((oc) => oc.column('business_pk').doNothing())
      .execute();
    let query = trx
      .selectFrom('invoice_settings')
      .select(['last_number', 'series_start'])
      .where('business_pk', '=', businessPk);
    if (this.kind === 'postgres') query = query.forUpdate();
    const row = await query.executeTakeFirstOrThrow();
    return { lastNumber: row.last_number, seriesStart: row.series_start };
  }

  /** A given number that is taken answers the stored invoice; an auto number skips taken candidates. */
  private async assignNumber(
    trx: Kysely<Database>,
    businessPk: number,
    request: NumberRequest,
    state: { lastNumber: string | null; seriesStart: string | null },
  ): Promise<{ existing: StoredInvoice } | { value: string }> {
    const taken = (number: string) =>
      trx
        .selectFrom('invoices')
        .selectAll()
        .where('business_pk', '=', businessPk)
        .where('invoice_number', '=', number)
        .executeTakeFirst();
    if ('given' in request) {
      const row = await taken(request.given);
      return row ? { existing: storedInvoiceOf(row) } : { value: request.given };
    }
    let candidate = request.auto.first(state);
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
  ): Promise<{ clientPk: number; settled: CreateSettled }> {
    const settled = (clientId: string, createdClient: boolean) => ({ invoiceNumber, clientId, createdClient });
    if (link.kind === 'existing') {
      const row = await trx
        .selectFrom('clients')
        .select('id')
        .where('business_pk', '=', businessPk)
        .where('client_id', '=', link.clientId)
        .executeTakeFirstOrThrow();
      return { clientPk: Number(row.id), settled: settled(link.clientId, false) };
    }
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
    if (match) return { clientPk: Number(match.id), settled: settled(match.client_id!, false) };
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
    return { clientPk: Number(row.id), settled: settled(clientId, true) };
  }

  /**
   * A change to one invoice decided against its locked row and live payments (a payment, a cancel, a
   * payment's removal): concurrent changes apply one after the other, each seeing the one before.
   * `decide` is pure (it runs no query); undefined: no such invoice.
   */
  async changeInvoice<T>(
    urlKey: string,
    invoiceId: string,
    decide: (locked: LockedInvoice) => Decision<T>,
  ): Promise<T | undefined> {
    if (!canName(urlKey, invoiceId)) return undefined;
    return this.db.transaction().execute(async (trx) => {
      await this.holdWriteLock(trx);
      let query = trx
        .selectFrom('invoices')
        .selectAll()
        .where('business_pk', '=', businessOf(trx, urlKey))
        .where('invoice_id', '=', invoiceId);
      if (this.kind === 'postgres') query = query.forUpdate();
      const row = await query.executeTakeFirst();
      if (!row) return undefined;
      const invoicePk = Number(row.id);
      const decision = decide({
        invoice: storedInvoiceOf(row),
        livePayments: await this.paymentsOf(trx, invoicePk, invoiceId, false),
      });
      if ('change' in decision) await this.apply(trx, invoicePk, row.business_pk, row.client_id, decision.change);
      return decision.answer;
    });
  }

  private async apply(
    trx: Kysely<Database>,
    invoicePk: number,
    businessPk: number,
    clientId: string,
    change: InvoiceChange,
  ): Promise<void> {
    const { invoice } = change;
    await trx
      .updateTable('invoices')
      .set({ status: invoice.status, paid_minor: Number(invoice.paidMinor), updated_at: invoice.updatedAt })
      .where('id', '=', invoicePk)
      .execute();
    if (change.addPayment) {
      const p = change.addPayment;
      await trx
        .insertInto('invoice_payments')
        .values({
          invoice_pk: invoicePk,
          payment_id: p.paymentId,
          settled_minor: Number(p.settledMinor),
          removed: 0,
          data: JSON.stringify(p.data),
          created_at: p.createdAt,
        })
        .execute();
    }
    if (change.removePaymentIds && change.removePaymentIds.length > 0) {
      await trx
        .updateTable('invoice_payments')
        .set({ removed: 1 })
        .where('invoice_pk', '=', invoicePk)
        .where('payment_id', 'in', change.removePaymentIds)
        .execute();
    }
    if (change.balance.length > 0) {
      const client = await trx
        .selectFrom('clients')
        .select('id')
        .where('business_pk', '=', businessPk)
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      if (client) for (const { member, e4 } of change.balance) await addToBalance(trx, Number(client.id), member, e4);
    }
    await writeOutbox(trx, change.events);
    await keepIdempotentAnswer(trx, change.answer);
    if (change.audit) await writeAudit(trx, change.audit);
  }

  async getSettings(urlKey: string): Promise<InvoiceSettingsRecord | undefined> {
    const row = await this.db
      .selectFrom('invoice_settings')
      .select(['doc', 'last_number', 'series_start'])
      .where('business_pk', '=', businessOf(this.db, urlKey))
      .executeTakeFirst();
    return (
      row && {
        doc: row.doc === null ? null : (JSON.parse(row.doc) as unknown),
        lastNumber: row.last_number,
        seriesStart: row.series_start,
      }
    );
  }

  /** Replaces the settings document; a numbering in it (seriesStart) restarts the series at the next auto number. */
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
      const values = { doc: JSON.stringify(doc), series_start: seriesStart, updated_at: now };
      await trx
        .insertInto('invoice_settings')
        .values({ business_pk: Number(found.id), last_number: null, ...values })
        .onConflict((oc) => oc.column('business_pk').doUpdateSet(values))
        .execute();
      if (audit) await writeAudit(trx, audit);
      return true;
    });
  }
}

/** Adds to one balance member atomically (no read-modify-write), so concurrent changes never lose an amount. */
async function addToBalance(trx: Kysely<Database>, clientPk: number, member: string, e4: number): Promise<void> {
  await trx
    .insertInto('client_balances')
    .values({ client_pk: clientPk, member, amount_e4: e4 })
    .onConflict((oc) =>
      oc
        .columns(['client_pk', 'member'])
        .doUpdateSet({ amount_e4: sql`${sql.ref('client_balances.amount_e4')} + ${sql.ref('excluded.amount_e4')}` }),
    )
    .execute();
}
