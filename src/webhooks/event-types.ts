/**
 * The one table of event types: the operator API validates subscriptions against it, and the OpenAPI
 * document, docs/webhooks.md (checked by a test) and the dashboard (GET /admin/v1/webhook-event-types)
 * all read it.
 */
export const EVENT_TYPES = [
  {
    type: 'client.created',
    emittedBy: 'clients, leads, invoices',
    description:
      'A client was created (API create, not an identical retry; a dashboard create; a lead create that named a new customer, clientId `lead-<leadId>`; or an invoice create for a new buyer, clientId `invoice-<_id>`, source INVOICE). `data`: the client in the public shape.',
  },
  {
    type: 'client.archived',
    emittedBy: 'clients',
    description: 'A client was archived from the dashboard. `data`: the client in the public shape plus `status`.',
  },
  {
    type: 'client.deleted',
    emittedBy: 'clients',
    description: 'A client was deleted from the dashboard. `data`: the client in the public shape plus `status`.',
  },
  {
    type: 'lead.created',
    emittedBy: 'leads',
    description:
      'A lead was created (API create, not an identical retry; or a dashboard create). `data`: the lead in the public shape.',
  },
  {
    type: 'lead.updated',
    emittedBy: 'leads',
    description:
      'A lead was edited (API or dashboard PATCH) and a stored value changed, stage moves included; a PATCH that changes nothing sends none. `data`: the lead in the public shape, after the edit.',
  },
  {
    type: 'lead.stage_changed',
    emittedBy: 'leads',
    description:
      'An edit moved a lead to another pipeline or stage; sent after that edit\'s `lead.updated`. `data`: the lead in the public shape, after the edit, plus `previous` and `current`, each `{"pipeline", "stage", "status"}`.',
  },
  {
    type: 'invoice.created',
    emittedBy: 'invoices',
    description:
      "An invoice was created (API or dashboard; not an identical retry or a replay); after `client.created` when it created the buyer's client. `data`: the invoice.",
  },
  {
    type: 'invoice.payment_recorded',
    emittedBy: 'invoices',
    description: 'A payment was recorded on an invoice. `data`: `{"invoice", "payment"}`, the invoice after it.',
  },
  {
    type: 'invoice.paid',
    emittedBy: 'invoices',
    description: 'A payment made an invoice PAID; sent after its `invoice.payment_recorded`. `data`: the invoice.',
  },
  {
    type: 'invoice.canceled',
    emittedBy: 'invoices',
    description: 'An invoice became CANCELED (not on a cancel of a canceled invoice). `data`: the invoice.',
  },
  {
    type: 'invoice.payment_removed',
    emittedBy: 'invoices (dashboard)',
    description: 'An operator removed a payment. `data`: `{"invoice", "payment"}`, the invoice after it.',
  },
  {
    type: 'webhook.test',
    emittedBy: 'the dashboard\'s "send test event"',
    description: 'A test event, sent to one endpoint on request whatever it subscribes to. `data`: `{"message"}`.',
  },
] as const;

export type EventType = (typeof EVENT_TYPES)[number]['type'];

export const EVENT_TYPE_NAMES: readonly EventType[] = EVENT_TYPES.map((e) => e.type);

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPE_NAMES as readonly string[]).includes(value);
}
