/**
 * The one table of event types: the operator API validates subscriptions against it, and the OpenAPI
 * document, docs/webhooks.md (checked by a test) and the dashboard (GET /admin/v1/webhook-event-types)
 * all read it.
 */
export const EVENT_TYPES = [
  { type: 'client.created', emittedBy: 'clients', description: 'A client was created (API create, not an identical retry; or a dashboard create). `data`: the client in the public shape.' },
  { type: 'client.archived', emittedBy: 'clients', description: 'A client was archived from the dashboard. `data`: the client in the public shape plus `status`.' },
  { type: 'client.deleted', emittedBy: 'clients', description: 'A client was deleted from the dashboard. `data`: the client in the public shape plus `status`.' },
  { type: 'lead.created', emittedBy: 'leads', description: 'A lead was created. `data`: the lead in the public shape.' },
  { type: 'lead.updated', emittedBy: 'leads', description: 'A lead was changed. `data`: the lead in the public shape.' },
  { type: 'lead.stage_changed', emittedBy: 'leads', description: 'A lead moved to another pipeline, stage or status. `data`: the lead, with `previous` and `current` pipeline, stage and status.' },
  { type: 'webhook.test', emittedBy: 'the dashboard\'s "send test event"', description: 'A test event, sent to one endpoint on request whatever it subscribes to. `data`: `{"message"}`.' },
] as const;

export type EventType = (typeof EVENT_TYPES)[number]['type'];

export const EVENT_TYPE_NAMES: readonly EventType[] = EVENT_TYPES.map((e) => e.type);

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPE_NAMES as readonly string[]).includes(value);
}
