import { FEATURES } from '../../src/features.js';

/**
 * Every route of the service, by the guard in front of it, with a body it would accept: the catalogue
 * that the hostile-input and tenancy suites walk. Routes and guards come from the app's own operations
 * (src/features.ts), so a new operation is walked without a line here; the bodies are the first body
 * example of its OpenAPI description, unless BODIES below gives one fitter for fuzzing.
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
  clientId: 'fuzz-client',
  name: 'Fuzz Client',
  email: 'fuzz@example.com',
  phone: '+91 98765-43210',
  gstin: '27AAPFU0939F1ZV',
  country: 'IN',
  state: 'Maharashtra',
  isVendor: true,
  bankAccounts: [{ bankAccountName: 'Main', bankAccountNumber: '1234567890', isPrimary: true }],
  shippingDetails: [{ name: 'Warehouse', city: 'Pune', country: 'IN', customHeaders: [{ label: 'Dock', value: '4' }] }],
  additionalIds: [{ label: 'UDY', value: 'UDYAM-MH-01-0000001', showInInvoice: true }],
};

const PIPELINES_BODY = {
  pipelines: [
    {
      name: 'Sales',
      isPrimary: true,
      stages: [{ name: 'New', state: 'NEW', reasons: ['cold'], closure: 10, decayThresholdHours: 72 }],
    },
  ],
  stageReasons: [{ key: 'cold', label: 'Went cold' }],
};

const LEAD_BODY = {
  externalId: 'fuzz-lead',
  customer: { name: 'Fuzz Co', phone: '+91 98765-43210' },
  contact: { name: 'Fuzz Person', email: 'fuzz@example.com' },
  pipeline: 'Sales',
  stage: 'New',
  subject: 'Fuzz',
  budget: { amount: 10 },
  tags: [],
  customFields: {},
};
const LEAD_PATCH = { subject: 'Edited', stage: 'New', addComments: { body: ['A note'], clientRequestId: 'fuzz' } };

/**
 * Bodies for fuzzing, by `METHOD path`, where the operation's own example would not do: one that fits
 * the seeded tenant (its pipeline, custom fields enabled), or that must not end the suite's session.
 */
const BODIES: Record<string, unknown> = {
  'POST /authentication': { strategy: 'app-secret', appId: 'app_x', appSecret: 'secret' },
  'POST /api/v1/businesses/:urlKey/clients': CLIENT_BODY,
  'POST /api/v1/businesses/:urlKey/leads': LEAD_BODY,
  'PATCH /api/v1/businesses/:urlKey/leads/:leadId': LEAD_PATCH,
  'POST /admin/v1/businesses/:urlKey/leads': { ...LEAD_BODY, externalId: undefined },
  'PATCH /admin/v1/businesses/:urlKey/leads/:leadId': LEAD_PATCH,
  'PUT /admin/v1/businesses/:urlKey/lead-sources': {
    sources: [
      { key: 'WEBSITE', label: 'Website' },
      { key: 'FAIR', label: 'Trade fair' },
    ],
  },
  'PUT /admin/v1/businesses/:urlKey/tags': { tags: [{ name: 'Hot' }, { name: 'VIP', isArchived: false }] },
  'PUT /admin/v1/businesses/:urlKey/members': { members: [{ email: 'asha@example.com', name: 'Asha' }] },
  'PUT /admin/v1/businesses/:urlKey/lead-custom-fields': { fields: [{ name: 'Team size', type: 'NUMBER' }] },
  'POST /admin/v1/businesses': { name: 'Fuzz Business', country: 'IN', customFieldsEnabled: true },
  'PATCH /admin/v1/businesses/:urlKey': { name: 'Renamed', currency: 'INR', customFieldsEnabled: true },
  'POST /admin/v1/apps': { name: 'Fuzz App' },
  'POST /admin/v1/apps/:appId/rotate-secret': {},
  'POST /admin/v1/apps/:appId/rotate-key': {},
  'POST /admin/v1/operators': { email: 'fuzz-operator@example.com', password: 'fuzz-operator-password' },
  // Never the real password: a fuzzed change must not end the suite's own operator session.
  'POST /admin/v1/operators/me/password': {
    currentPassword: 'not-the-operator-password',
    newPassword: 'fuzz new password',
  },
  'PUT /admin/v1/businesses/:urlKey/pipelines': PIPELINES_BODY,
  'PUT /admin/v1/businesses/:urlKey/custom-fields': {
    fields: [
      { name: 'Tier', type: 'SELECT', options: ['Gold', 'Silver'] },
      { name: 'Since', type: 'DATE' },
    ],
  },
  'POST /admin/v1/businesses/:urlKey/clients': { name: 'Walk-in', source: 'DASHBOARD', email: 'walkin@example.com' },
  'POST /admin/v1/businesses/:urlKey/clients/:clientId/documents': { type: 'invoice', amount: 1250.5 },
  // Disabled: a fuzzed endpoint never receives anything (example.com is reserved in any case).
  'POST /admin/v1/businesses/:urlKey/webhooks': {
    url: 'https://hooks.example.com/fuzz',
    eventTypes: ['client.created'],
    enabled: false,
    description: 'fuzz',
  },
  'PATCH /admin/v1/businesses/:urlKey/webhooks/:endpointId': { eventTypes: ['client.archived'], enabled: false },
  'POST /admin/v1/businesses/:urlKey/webhooks/:endpointId/rotate-secret': {},
  'POST /admin/v1/businesses/:urlKey/webhooks/:endpointId/test': {},
  'POST /admin/v1/businesses/:urlKey/webhooks/:endpointId/events/:eventId/resend': {},
};

function exampleBody(op: { body?: { examples?: Record<string, { value: unknown }> } }): unknown {
  return Object.values(op.body?.examples ?? {})[0]?.value;
}

export const ENDPOINTS: Endpoint[] = FEATURES.flatMap((feature) => feature.sections)
  .flatMap((section) => section.operations)
  .map((op) => {
    const method = op.method.toUpperCase();
    const key = `${method} ${op.path}`;
    const body = key in BODIES ? BODIES[key] : exampleBody(op);
    return { method, path: op.path, guard: op.refusal ? 'refused' : op.guard, ...(body !== undefined && { body }) };
  });

const stale = Object.keys(BODIES).filter((key) => !ENDPOINTS.some((e) => `${e.method} ${e.path}` === key));
if (stale.length > 0) throw new Error(`endpoints.ts: bodies for operations that do not exist: ${stale.join(', ')}`);

/** A pattern with its parameters filled in (values already percent-encoded where they need to be). */
export function fillPath(pattern: string, values: Record<string, string>): string {
  return pattern.replace(/:(\w+)|\*/g, (_whole, name: string | undefined) => values[name ?? '*'] ?? '');
}
