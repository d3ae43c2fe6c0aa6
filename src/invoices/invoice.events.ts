import type { BusinessRecord } from '../storage/records.js';
import { presentClient } from '../clients/client.present.js';
import { insertedClient } from '../storage/client-batches.js';
import type { OutboxRow } from '../storage/webhooks.store.js';
import type { EventPlan } from '../webhooks/events.js';

const NONE: OutboxRow[] = [];

/**
 * client.created for the client an invoice makes (3.6.3): the client as GET client will answer it,
 * written with the invoice, before its invoice.created (section 5). Such a client has no custom field
 * values, so the business alone completes its presentation.
 */
export function invoiceClientEvents(
  plan: EventPlan,
  clientId: string,
  data: unknown,
  at: number,
  business: BusinessRecord,
): OutboxRow[] {
  if (!plan.wants('client.created')) return NONE;
  const client = presentClient(insertedClient(clientId, 'INVOICE', data, at), {
    business,
    customFields: [],
    liveFieldIds: new Set(),
  });
  return plan.rows({ type: 'client.created', resourceId: clientId, data: client }, at);
}

/** One invoice event (section 5), nothing (and no presenting) when nobody subscribes. */
export function invoiceEvent(
  plan: EventPlan,
  type: InvoiceEventType,
  invoiceId: string,
  data: () => unknown,
  at: number,
): OutboxRow[] {
  if (!plan.wants(type)) return NONE;
  return plan.rows({ type, resourceId: invoiceId, data: data() }, at);
}

export type InvoiceEventType =
  | 'invoice.created'
  | 'invoice.payment_recorded'
  | 'invoice.paid'
  | 'invoice.canceled'
  | 'invoice.payment_removed';
