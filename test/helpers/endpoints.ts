/**
 * Every route of the service, by the guard in front of it, with a body it would accept: the catalogue
 * that the hostile-input and tenancy suites walk, so a route added without a line here is noticed
 * (test/http/hostile.input.test.ts compares it with the app's own route table).
 */
export type Guard = 'app' | 'operator' | 'open' | 'refused';

export interface Endpoint {
  method: string;
  /** A route pattern with `:urlKey`, `:clientId`, `:appId`, `:pipelineId`, `:leadId`, `:endpointId`, `:eventId`, `*`. */
  path: string;
  guard: Guard;
  body?: unknown;
}

export const CLIENT_BODY = {
  clientId: 'fuzz-client', name: 'Fuzz Client', email: 'fuzz@example.com', phone: '+91 98765-43210', gstin: '27AAPFU0939F1ZV',
  country: 'IN', state: 'Maharashtra', isVendor: true,
  bankAccounts: [{ bankAccountName: 'Main', bankAccountNumber: '1234567890', isPrimary: true }],
  shippingDetails: [{ name: 'Warehouse', city: 'Pune', country: 'IN', customHeaders: [{ label: 'Dock', value: '4' }] }],
  additionalIds: [{ label: 'UDY', value: 'UDYAM-MH-01-0000001', showInInvoice: true }],
};

const PIPELINES_BODY = {
  pipelines: [{ name: 'Sales', isPrimary: true, stages: [{ name: 'New', state: 'NEW', reasons: ['cold'], closure: 10, decayThresholdHours: 72 }] }],
  stageReasons: [{ key: 'cold', label: 'Went cold' }],
};

const LEAD_BODY = {
  externalId: 'fuzz-lead', customer: { name: 'Fuzz Co', phone: '+91 98765-43210' }, contact: { name: 'Fuzz Person', email: 'fuzz@example.com' },
  pipeline: 'Sales', stage: 'New', subject: 'Fuzz', budget: { amount: 10 }, tags: [], customFields: {},
};
const LEAD_PATCH = { subject: 'Edited', stage: 'New', addComments: { body: ['A note'], clientRequestId: 'fuzz' } };

export const ENDPOINTS: Endpoint[] = [
  { method: 'POST', path: '/authentication', guard: 'open', body: { strategy: 'app-secret', appId: 'app_x', appSecret: 'secret' } },
  { method: 'GET', path: '/api/v1/businesses/:urlKey/pipelines', guard: 'app' },
  ...['POST', 'PUT', 'PATCH', 'DELETE'].map((method) => ({ method, path: '/api/v1/businesses/:urlKey/pipelines', guard: 'refused' as const })),
  ...['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((method) => ({ method, path: '/api/v1/businesses/:urlKey/pipelines/:pipelineId', guard: 'refused' as const })),
  { method: 'POST', path: '/api/v1/businesses/:urlKey/clients', guard: 'app', body: CLIENT_BODY },
  { method: 'GET', path: '/api/v1/businesses/:urlKey/clients', guard: 'refused' },
  { method: 'GET', path: '/api/v1/businesses/:urlKey/clients/:clientId', guard: 'app' },
  ...['PUT', 'PATCH', 'DELETE'].map((method) => ({ method, path: '/api/v1/businesses/:urlKey/clients/:clientId', guard: 'refused' as const })),
  // Leads (src/leads/leads.routes.ts): create, edit, get, activity, and the 405s of leads-interface 4.6.
  { method: 'POST', path: '/api/v1/businesses/:urlKey/leads', guard: 'app', body: LEAD_BODY },
  { method: 'GET', path: '/api/v1/businesses/:urlKey/leads/:leadId', guard: 'app' },
  { method: 'PATCH', path: '/api/v1/businesses/:urlKey/leads/:leadId', guard: 'app', body: LEAD_PATCH },
  { method: 'GET', path: '/api/v1/businesses/:urlKey/leads/:leadId/activities', guard: 'app' },
  ...['PUT', 'PATCH', 'DELETE'].map((method) => ({ method, path: '/api/v1/businesses/:urlKey/leads', guard: 'refused' as const })),
  ...['PUT', 'DELETE', 'POST'].map((method) => ({ method, path: '/api/v1/businesses/:urlKey/leads/:leadId', guard: 'refused' as const })),
  ...['POST', 'PUT', 'PATCH', 'DELETE'].map((method) => ({ method, path: '/api/v1/businesses/:urlKey/leads/:leadId/activities', guard: 'refused' as const })),
  { method: 'POST', path: '/admin/v1/businesses/:urlKey/leads', guard: 'operator', body: { ...LEAD_BODY, externalId: undefined } },
  { method: 'GET', path: '/admin/v1/businesses/:urlKey/leads/:leadId', guard: 'operator' },
  { method: 'PATCH', path: '/admin/v1/businesses/:urlKey/leads/:leadId', guard: 'operator', body: LEAD_PATCH },
  { method: 'GET', path: '/admin/v1/businesses/:urlKey/leads/:leadId/activities', guard: 'operator' },
  { method: 'DELETE', path: '/admin/v1/businesses/:urlKey/leads/:leadId', guard: 'operator' },
  // Lead lists and the lead configuration (leads-list.routes.ts, lead-settings.routes.ts).
  { method: 'GET', path: '/api/v1/businesses/:urlKey/leads', guard: 'app' },
  { method: 'GET', path: '/admin/v1/businesses/:urlKey/leads', guard: 'operator' },
  { method: 'GET', path: '/admin/v1/businesses/:urlKey/lead-sources', guard: 'operator' },
  { method: 'PUT', path: '/admin/v1/businesses/:urlKey/lead-sources', guard: 'operator', body: { sources: [{ key: 'WEBSITE', label: 'Website' }, { key: 'FAIR', label: 'Trade fair' }] } },
  { method: 'GET', path: '/admin/v1/businesses/:urlKey/tags', guard: 'operator' },
  { method: 'PUT', path: '/admin/v1/businesses/:urlKey/tags', guard: 'operator', body: { tags: [{ name: 'Hot' }, { name: 'VIP', isArchived: false }] } },
  { method: 'GET', path: '/admin/v1/businesses/:urlKey/members', guard: 'operator' },
  { method: 'PUT', path: '/admin/v1/businesses/:urlKey/members', guard: 'operator', body: { members: [{ email: 'asha@example.com', name: 'Asha' }] } },
  { method: 'GET', path: '/admin/v1/businesses/:urlKey/lead-custom-fields', guard: 'operator' },
  { method: 'PUT', path: '/admin/v1/businesses/:urlKey/lead-custom-fields', guard: 'operator', body: { fields: [{ name: 'Team size', type: 'NUMBER' }] } },

  { method: 'POST', path: '/admin/v1/businesses', guard: 'operator', body: { name: 'Fuzz Business', country: 'IN', customFieldsEnabled: true } },
  { method: 'GET', path: '/admin/v1/businesses', guard: 'operator' },
  { method: 'GET', path: '/admin/v1/businesses/:urlKey', guard: 'operator' },
  { method: 'PATCH', path: '/admin/v1/businesses/:urlKey', guard: 'operator', body: { name: 'Renamed', currency: 'INR', customFieldsEnabled: true } },
  { method: 'POST', path: '/admin/v1/apps', guard: 'operator', body: { name: 'Fuzz App' } },
  { method: 'GET', path: '/admin/v1/apps', guard: 'operator' },
  { method: 'POST', path: '/admin/v1/apps/:appId/rotate-secret', guard: 'operator', body: {} },
  { method: 'POST', path: '/admin/v1/apps/:appId/rotate-key', guard: 'operator', body: {} },
  { method: 'PUT', path: '/admin/v1/apps/:appId/businesses/:urlKey', guard: 'operator' },
  { method: 'DELETE', path: '/admin/v1/apps/:appId/businesses/:urlKey', guard: 'operator' },
  { method: 'POST', path: '/admin/v1/operators', guard: 'operator', body: { email: 'fuzz-operator@example.com', password: 'fuzz-operator-password' } },
  { method: 'GET', path: '/admin/v1/audit', guard: 'operator' },
  { method: 'POST', path: '/admin/v1/businesses/:urlKey/archive', guard: 'operator' },
  { method: 'POST', path: '/admin/v1/businesses/:urlKey/restore', guard: 'operator' },
  { method: 'POST', path: '/admin/v1/apps/:appId/archive', guard: 'operator' },
  { method: 'POST', path: '/admin/v1/apps/:appId/restore', guard: 'operator' },
  { method: 'GET', path: '/admin/v1/operators', guard: 'operator' },
  // Never the real password: a fuzzed change must not end the suite's own operator session.
  { method: 'POST', path: '/admin/v1/operators/me/password', guard: 'operator', body: { currentPassword: 'not-the-operator-password', newPassword: 'fuzz new password' } },
  { method: 'GET', path: '/admin/v1/businesses/:urlKey/pipelines', guard: 'operator' },
  { method: 'PUT', path: '/admin/v1/businesses/:urlKey/pipelines', guard: 'operator', body: PIPELINES_BODY },
  { method: 'GET', path: '/admin/v1/businesses/:urlKey/custom-fields', guard: 'operator' },
  { method: 'PUT', path: '/admin/v1/businesses/:urlKey/custom-fields', guard: 'operator', body: { fields: [{ name: 'Tier', type: 'SELECT', options: ['Gold', 'Silver'] }, { name: 'Since', type: 'DATE' }] } },
  { method: 'POST', path: '/admin/v1/businesses/:urlKey/clients', guard: 'operator', body: { name: 'Walk-in', source: 'DASHBOARD', email: 'walkin@example.com' } },
  { method: 'GET', path: '/admin/v1/businesses/:urlKey/clients', guard: 'operator' },
  { method: 'GET', path: '/admin/v1/businesses/:urlKey/clients/:clientId', guard: 'operator' },
  { method: 'POST', path: '/admin/v1/businesses/:urlKey/clients/:clientId/archive', guard: 'operator' },
  { method: 'POST', path: '/admin/v1/businesses/:urlKey/clients/:clientId/restore', guard: 'operator' },
  { method: 'DELETE', path: '/admin/v1/businesses/:urlKey/clients/:clientId', guard: 'operator' },
  { method: 'POST', path: '/admin/v1/businesses/:urlKey/clients/:clientId/documents', guard: 'operator', body: { type: 'invoice', amount: 1250.5 } },
  { method: 'GET', path: '/admin/v1/webhook-event-types', guard: 'operator' },
  // Disabled: a fuzzed endpoint never receives anything (example.com is reserved in any case).
  { method: 'POST', path: '/admin/v1/businesses/:urlKey/webhooks', guard: 'operator', body: { url: 'https://hooks.example.com/fuzz', eventTypes: ['client.created'], enabled: false, description: 'fuzz' } },
  { method: 'GET', path: '/admin/v1/businesses/:urlKey/webhooks', guard: 'operator' },
  { method: 'GET', path: '/admin/v1/businesses/:urlKey/webhooks/:endpointId', guard: 'operator' },
  { method: 'PATCH', path: '/admin/v1/businesses/:urlKey/webhooks/:endpointId', guard: 'operator', body: { eventTypes: ['client.archived'], enabled: false } },
  { method: 'DELETE', path: '/admin/v1/businesses/:urlKey/webhooks/:endpointId', guard: 'operator' },
  { method: 'POST', path: '/admin/v1/businesses/:urlKey/webhooks/:endpointId/rotate-secret', guard: 'operator', body: {} },
  { method: 'POST', path: '/admin/v1/businesses/:urlKey/webhooks/:endpointId/test', guard: 'operator', body: {} },
  { method: 'GET', path: '/admin/v1/businesses/:urlKey/webhooks/:endpointId/deliveries', guard: 'operator' },
  { method: 'POST', path: '/admin/v1/businesses/:urlKey/webhooks/:endpointId/events/:eventId/resend', guard: 'operator', body: {} },

  { method: 'GET', path: '/', guard: 'open' },
  { method: 'GET', path: '/assets/*', guard: 'open' },
  { method: 'GET', path: '/healthz', guard: 'open' },
  { method: 'GET', path: '/readyz', guard: 'open' },
  { method: 'GET', path: '/metrics', guard: 'open' },
  { method: 'GET', path: '/openapi.json', guard: 'open' },
  { method: 'GET', path: '/docs', guard: 'open' },
  { method: 'GET', path: '/docs/*', guard: 'open' },
];

/** A pattern with its parameters filled in (values already percent-encoded where they need to be). */
export function fillPath(pattern: string, values: Record<string, string>): string {
  return pattern.replace(/:(\w+)|\*/g, (_whole, name: string | undefined) => values[name ?? '*'] ?? '');
}
