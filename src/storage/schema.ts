import type { Generated } from 'kysely';

/**
 * Row types of both stores. Flags are integers (0/1) and times are epoch milliseconds in both
 * dialects, and documents are JSON text, so that every query is written once.
 */
export interface OperatorsTable {
  id: Generated<number>;
  public_id: string;
  email: string;
  password_hash: string;
  created_at: number;
  /** Bumped by a password change: sessions carrying an older one are refused. */
  session_version: Generated<number>;
}

export interface SigningKeysTable {
  kid: string;
  secret: string;
  created_at: number;
}

export interface BusinessesTable {
  id: Generated<number>;
  url_key: string;
  name: string;
  country: string;
  currency: string;
  custom_fields_enabled: number;
  /** IANA name; null: the default of the business's country. */
  time_zone: string | null;
  created_at: number;
  updated_at: number;
  archived_at: number | null;
}

export interface AppsTable {
  id: Generated<number>;
  app_id: string;
  name: string;
  secret_hash: string;
  secret_version: number;
  public_key_pem: string;
  key_version: number;
  created_at: number;
  updated_at: number;
  archived_at: number | null;
  /** Written at most once a minute per app and process (auth/last-used.ts), never per request. */
  last_used_at: number | null;
}

export interface AppBusinessesTable {
  app_pk: number;
  business_pk: number;
  created_at: number;
}

export interface PipelineConfigsTable {
  business_pk: number;
  config: string;
  version: number;
  updated_at: number;
}

export interface CustomFieldSetsTable {
  business_pk: number;
  fields: string;
  version: number;
  updated_at: number;
}

export interface ClientsTable {
  id: Generated<number>;
  business_pk: number;
  client_id: string | null;
  status: string;
  source: string;
  data: string;
  created_at: number;
  updated_at: number;
}

/** One row per (client, balance member): amounts in ten-thousandths, so sums stay exact. */
export interface ClientBalancesTable {
  client_pk: number;
  member: string;
  amount_e4: number;
}

export interface RateLimitsTable {
  bucket: string;
  window_start: number;
  count: number;
}

/** A claimed Idempotency-Key (migration 015-idempotency-keys): `status` and `body` stay null while its request runs. */
export interface IdempotencyKeysTable {
  business_pk: number;
  caller: string;
  key: string;
  fingerprint: string;
  token: string;
  lease_until: number;
  status: number | null;
  body: string | null;
  created_at: number;
}

export interface InvoiceMailTable {
  id: Generated<number>;
  business_pk: number;
  invoice_id: string;
  recipients: string;
  state: string;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  created_at: number;
  finished_at: number | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  operator_email: string;
  action: string;
  business_url_key: string | null;
  detail: string;
}

export interface LeadSettingsTable {
  business_pk: number;
  kind: string;
  doc: string;
  version: number;
  updated_at: number;
}

export interface ContactsTable {
  id: Generated<number>;
  business_pk: number;
  contact_id: string;
  client_pk: number | null;
  name: string;
  email: string | null;
  phone: string | null;
  country: string;
  created_at: number;
}

export interface LeadsTable {
  id: Generated<number>;
  business_pk: number;
  lead_id: string;
  external_id: string | null;
  removed: number;
  source: string;
  pipeline_id: string;
  stage_id: string;
  lead_source_key: string | null;
  assignee_id: string | null;
  follow_up_date: string | null;
  budget_amount: number | null;
  client_id: string;
  contact_id: string;
  contact_name: string;
  contact_email: string | null;
  contact_phone: string | null;
  customer_name: string;
  subject: string | null;
  details: string | null;
  data: string;
  create_request: string | null;
  version: number;
  created_at: number;
  updated_at: number;
  /** The change position a sync reads leads by (migration 011-sync-positions): stamped by triggers. */
  sync_pos: Generated<number>;
}

export interface LeadTagsTable {
  lead_pk: number;
  business_pk: number;
  tag_id: string;
}

export interface LeadActivitiesTable {
  id: Generated<number>;
  lead_pk: number;
  activity_id: string;
  type: string;
  author: string;
  data: string;
  created_at: number;
}

export interface LeadRequestIdsTable {
  lead_pk: number;
  kind: string;
  client_request_id: string;
}

export interface WebhookEndpointsTable {
  id: Generated<number>;
  business_pk: number;
  public_id: string;
  url: string;
  description: string | null;
  event_types: string;
  enabled: number;
  disabled_reason: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: number | null;
  created_at: number;
  updated_at: number;
}

/** One event for one endpoint: `payload` is the exact body that is signed and sent. */
export interface WebhookOutboxTable {
  id: Generated<number>;
  endpoint_pk: number;
  message_id: string;
  event_type: string;
  resource_key: string;
  payload: string;
  state: string;
  attempts: number;
  next_attempt_at: number;
  created_at: number;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  endpoint_pk: number;
  message_id: string;
  event_type: string;
  attempt: number;
  at: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

/** Money columns are whole minor units of the invoice's currency (below 10^15, exact as numbers). */
export interface InvoicesTable {
  id: Generated<number>;
  business_pk: number;
  invoice_id: string;
  invoice_number: string;
  client_id: string;
  status: string;
  currency: string;
  total_minor: number;
  paid_minor: number;
  invoice_date: number;
  share_token: string;
  content: string;
  create_request: string;
  created_at: number;
  updated_at: number;
}

export interface InvoicePaymentsTable {
  id: Generated<number>;
  invoice_pk: number;
  payment_id: string;
  settled_minor: number;
  removed: number;
  data: string;
  created_at: number;
}

export interface InvoiceSettingsTable {
  business_pk: number;
  doc: string | null;
  /** The number of the business's most recently created invoice when the numbering was saved (null: none). */
  last_number: string | null;
  /** The saved numbering's first number, until the next auto-number create (it starts it unless an invoice came between). */
  series_start: string | null;
  updated_at: number;
}

export interface InvoiceBuyersTable {
  client_pk: number;
  business_pk: number;
  match_key: string;
}

/**
 * Sums kept by triggers (migration 028-report-rollups; `listed` and `dated`, migration 032): read by the
 * reports and by an invoice find's total, never written by the application.
 */
export interface InvoiceRollupsTable {
  business_pk: number;
  series: 'invoiced' | 'owed' | 'collected' | 'listed' | 'dated';
  currency: string;
  bucket: string;
  slot: number;
  n: number | string;
  minor: number | string;
}

export interface LeadSavedFiltersTable {
  public_id: string;
  business_pk: number;
  operator_id: string;
  name: string;
  query: string;
  updated_at: number;
}

export interface Database {
  operators: OperatorsTable;
  signing_keys: SigningKeysTable;
  businesses: BusinessesTable;
  apps: AppsTable;
  app_businesses: AppBusinessesTable;
  pipeline_configs: PipelineConfigsTable;
  custom_field_sets: CustomFieldSetsTable;
  clients: ClientsTable;
  client_balances: ClientBalancesTable;
  rate_limits: RateLimitsTable;
  audit_log: AuditLogTable;
  lead_settings: LeadSettingsTable;
  contacts: ContactsTable;
  leads: LeadsTable;
  lead_tags: LeadTagsTable;
  lead_activities: LeadActivitiesTable;
  lead_request_ids: LeadRequestIdsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_outbox: WebhookOutboxTable;
  webhook_attempts: WebhookAttemptsTable;
  invoices: InvoicesTable;
  invoice_payments: InvoicePaymentsTable;
  invoice_rollups: InvoiceRollupsTable;
  invoice_settings: InvoiceSettingsTable;
  invoice_buyers: InvoiceBuyersTable;
  idempotency_keys: IdempotencyKeysTable;
  invoice_mail: InvoiceMailTable;
  lead_saved_filters: LeadSavedFiltersTable;
}
