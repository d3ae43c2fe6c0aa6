import type { IdempotentAnswer } from './idempotency-keys.store.js';
import type { MailRecipients } from './invoice-mail.store.js';
import type { AuditEntry } from './records.js';
import type { SyncCursor } from './sync-pages.js';
import type { OutboxRow } from './webhooks.records.js';

/** What the invoices store hands out and takes: plain records with public identifiers only. */

export interface StoredInvoice {
  invoiceId: string;
  invoiceNumber: string;
  clientId: string;
  status: string;
  currency: string;
  /** Whole minor units of `currency`. */
  totalMinor: bigint;
  paidMinor: bigint;
  invoiceDate: number;
  shareToken: string;
  /** The content snapshot: every member of the answer that never changes. */
  content: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
}

/** A stored invoice with its content snapshot as stored: the JSON text JSON.stringify made of it, unparsed. */
export interface StoredInvoiceText extends Omit<StoredInvoice, 'content'> {
  contentText: string;
}

export interface StoredPayment {
  paymentId: string;
  invoiceId: string;
  settledMinor: bigint;
  removed: boolean;
  /** amount, tds, transactionCharge, paymentDate, paymentMethod, notes, refId, appId: as the answer shows them. */
  data: Record<string, unknown>;
  createdAt: number;
}

/** How a create names its number: given by the caller, or the next of the business's series. */
export type NumberRequest = { given: string } | { auto: NumberSeries };

/** The pure rules of the series (invoice.numbering.ts), handed to the store that assigns under its lock. */
export interface NumberSeries {
  /** The first candidate: continue `last` (null: no invoice yet), or start a saved series. */
  first(state: { lastNumber: string | null; seriesStart: string | null }): string;
  /** The candidate after a taken one. */
  following(candidate: string): string;
}

/** Where the invoice's client comes from (invoices-interface 3.6). */
export type ClientLink =
  | { kind: 'existing'; clientId: string }
  | { kind: 'buyer'; matchKey: string; newClient: { clientId: string; data: unknown } };

/** What the creating transaction settled: the events are made from it (they name the number and client). */
export interface CreateSettled {
  invoiceNumber: string;
  clientId: string;
  createdClient: boolean;
}

export interface InvoiceInsert {
  /** `createRequest`: the normalised request, compared on a retry of the same number (invoices-interface 4.1). */
  invoice: Omit<StoredInvoice, 'invoiceNumber' | 'clientId'> & { createRequest: unknown };
  number: NumberRequest;
  client: ClientLink;
  /** Ten-thousandths added to the client's `invoice` balance; null when the currency is not the balance's. */
  balanceE4: number | null;
  /** The outbox rows, in order (client.created before invoice.created). Pure: it runs under the lock. */
  events(settled: CreateSettled): OutboxRow[];
  /** An Idempotency-Key's answer (invoices-interface 4.2), kept in this transaction with the number and client it settles. */
  answer: IdempotentAnswer | null;
  /** The invoice's mail, queued in this transaction; null or absent: none (no `email`, or mail not configured). */
  mail?: MailRecipients | null;
  /** The operator's audit line, written in this transaction; its detail gains the settled `invoiceNumber`. */
  audit: AuditEntry | null;
}

export type InsertInvoiceResult =
  | { outcome: 'inserted'; invoice: StoredInvoice }
  | { outcome: 'exists'; invoice: StoredInvoice; createRequest: unknown }
  | { outcome: 'no-business' };

/** A change to one invoice, decided (purely) against the locked row and its live payments. */
export interface InvoiceChange {
  invoice: Pick<StoredInvoice, 'status' | 'paidMinor' | 'updatedAt'>;
  addPayment?: StoredPayment;
  removePaymentIds?: string[];
  /** Additions to the client's balance members, in ten-thousandths. */
  balance: { member: 'invoice' | 'invoicePayment'; e4: number }[];
  events: OutboxRow[];
  /** An Idempotency-Key's answer, kept in this transaction when the change is applied. */
  answer?: IdempotentAnswer | null;
  /** The operator's audit line, written in this transaction when the change is applied. */
  audit?: AuditEntry | null;
}

/**
 * What a change is decided against: the locked row, its content snapshot left as the stored text (a
 * change never alters it; it is parsed only to present the invoice), and its live payments.
 */
export interface LockedInvoice {
  invoice: StoredInvoiceText;
  livePayments: StoredPayment[];
}

/** The locked row alone, for a decision that does not look at the payments (a payment's). */
export type LockedRow = Pick<LockedInvoice, 'invoice'>;

/** What a decision answers: a change to apply (and what to answer), or an answer without a change. */
export type Decision<T> = { change: InvoiceChange; answer: T } | { answer: T };

export interface InvoiceSettingsRecord {
  doc: unknown;
  seriesStart: string | null;
}

export type InvoiceSortField = 'createdAt' | 'invoiceNumber' | 'invoiceDate';

/** A find (invoices-interface 4.3): every filter sent must match; sort keys in order, then createdAt, _id descending. */
export interface InvoiceListQuery {
  filter: { clientIds?: string[]; statuses?: string[]; invoiceNumber?: string; dateFrom?: number; dateTo?: number };
  sort: { field: InvoiceSortField; direction: 1 | -1 }[];
  limit: number;
  skip: number;
  /** Sync (updatedAtFrom, after): pages in commit order from the cursor; no total, no skip, no sort. */
  sync?: { cursor: SyncCursor };
}
