import type {
  Client,
  ClientCreate,
  ClientCreated,
  Invoice,
  InvoiceCanceled,
  InvoiceCreate,
  InvoiceCreated,
  InvoicePage,
  Payment,
  PaymentCreate,
  PaymentList,
  Lead,
  LeadCreate,
  LeadCreated,
  LeadPage,
  LeadPatch,
  PipelineConfiguration,
} from './api-types.js';
import { CrmkitError } from './errors.js';
import { leadQueryString, syncPages, type LeadListQuery, type LeadSyncPage, type LeadSyncQuery } from './lead-list.js';
import { secretTokens, selfSignedTokens, TokenKeeper } from './tokens.js';
import { Transport, type Call, type RetryOptions } from './transport.js';

interface Common extends RetryOptions {
  /** Where the service answers, like https://crm.example.com (no trailing path). */
  baseUrl: string;
  /** The business the calls address; `forBusiness` gives a client for another one. */
  urlKey: string;
  appId: string;
  /** The clock, in ms since the epoch. Default Date.now. */
  now?: () => number;
}

/** Tokens from the app secret (POST /authentication, strategy app-secret). */
export interface SecretOptions extends Common {
  appSecret: string;
}

/** Tokens the client signs itself with the app's private key (ES256); no secret travels. */
export interface KeyOptions extends Common {
  privateKeyPem: string;
  /** The `aud` the service expects (shown with the key in the dashboard; JWT_AUDIENCE). */
  audience: string;
}

export type CreateClientOptions = SecretOptions | KeyOptions;

export interface CrmkitClient {
  readonly urlKey: string;
  pipelines: {
    /** The business's pipelines with their stages, and the stage-reason catalog. */
    list(options?: { includeArchived?: boolean }): Promise<PipelineConfiguration>;
  };
  clients: {
    /** Creates a client, or answers the stored one with `idempotent: true` when this is an identical retry. */
    create(body: ClientCreate): Promise<ClientCreated>;
    get(clientId: string): Promise<Client>;
  };
  leads: {
    /** Creates a lead, or answers it as it is now with `idempotent: true` when this is an identical retry (same externalId). */
    create(body: LeadCreate): Promise<LeadCreated>;
    /** A partial edit: only the fields sent change; null clears. Answers the whole lead. */
    update(leadId: string, body: LeadPatch): Promise<Lead>;
    get(leadId: string): Promise<Lead>;
    /** One page of leads (filters, free text, $sort, $limit/$skip): `{items, total, limit, skip}`. */
    list(query?: LeadListQuery): Promise<LeadPage>;
    /**
     * A sync by updatedAt (from `updatedAtFrom`, or resuming at `after`; from the start when neither):
     * `for await (const page of crm.leads.sync({updatedAtFrom}))`. Keep the last page's nextCursor to resume.
     */
    sync(query?: LeadSyncQuery): AsyncGenerator<LeadSyncPage>;
  };
  invoices: {
    /**
     * Creates an invoice. One Idempotency-Key per call (yours, or a random one), sent again on the
     * client's own retries: a lost answer never makes a second invoice.
     */
    create(body: InvoiceCreate, options?: { idempotencyKey?: string }): Promise<InvoiceCreated>;
    get(invoiceId: string): Promise<Invoice>;
    /** One page: `{total, limit, skip, data}` (invoices-interface 4.3: $limit, $skip, $sort[F], client, status, invoiceNumber, invoiceDate[$gte|$lte]). */
    find(query?: Record<string, string>): Promise<InvoicePage>;
    cancel(invoiceId: string, options?: { cancelPayment?: boolean }): Promise<InvoiceCanceled>;
    /**
     * A sync in change order (from `updatedAtFrom`, or resuming at `after`): `for await (const page of
     * crm.invoices.sync({updatedAtFrom}))`, each page `{data, nextCursor}`; ends when no invoice follows
     * yet. Keep the last page's nextCursor and pass it as `after` to resume.
     */
    sync(query: { updatedAtFrom?: string; after?: string; $limit?: string }): AsyncGenerator<InvoicePage>;
  };
  payments: {
    /** Records a payment, with an Idempotency-Key reused on retries as for invoices.create. */
    add(invoiceId: string, body: PaymentCreate, options?: { idempotencyKey?: string }): Promise<Payment>;
    list(invoiceId: string, options?: { includeRemoved?: boolean }): Promise<PaymentList>;
  };
  /** The same app (and token) for another business it is attached to. */
  forBusiness(urlKey: string): CrmkitClient;
  /** A valid bearer token, obtained or renewed as needed (for calls this client does not cover). */
  token(): Promise<string>;
}

function queryString(query: Record<string, string>): string {
  const text = new URLSearchParams(query).toString();
  return text ? `?${text}` : '';
}

export function createClient(options: CreateClientOptions): CrmkitClient {
  const now = options.now ?? Date.now;
  const transport = new Transport(options.baseUrl.replace(/\/+$/, ''), options);
  const obtain =
    'privateKeyPem' in options
      ? selfSignedTokens(options.appId, options.privateKeyPem, options.audience, now)
      : secretTokens(transport, options.appId, options.appSecret);
  const tokens = new TokenKeeper(obtain, now);

  async function send<T>(call: Omit<Call, 'token'>): Promise<T> {
    try {
      const answer = (await transport.send({ ...call, token: await tokens.get() })) as { data: T };
      return answer.data;
    } catch (error) {
      // A refused token is not retried (4xx never is); the next call starts with a fresh one.
      if (error instanceof CrmkitError && error.status === 401) tokens.forget();
      throw error;
    }
  }

  /** The invoices API answers the vendor's shapes, without the {success, data} envelope. */
  async function sendPlain<T>(call: Omit<Call, 'token'>): Promise<T> {
    try {
      return (await transport.send({ ...call, token: await tokens.get() })) as T;
    } catch (error) {
      if (error instanceof CrmkitError && error.status === 401) tokens.forget();
      throw error;
    }
  }
  const keyed = (key?: string) => ({ 'idempotency-key': key ?? crypto.randomUUID() });

  const forBusiness = (urlKey: string): CrmkitClient => {
    const base = `/api/v1/businesses/${encodeURIComponent(urlKey)}`;
    return {
      urlKey,
      pipelines: {
        async list({ includeArchived = false } = {}) {
          const [configuration] = await send<PipelineConfiguration[]>({
            method: 'GET',
            path: `${base}/pipelines?includeArchived=${includeArchived}`,
          });
          return configuration!;
        },
      },
      clients: {
        create: (body) => send<ClientCreated>({ method: 'POST', path: `${base}/clients`, body }),
        get: (clientId) => send<Client>({ method: 'GET', path: `${base}/clients/${encodeURIComponent(clientId)}` }),
      },
      leads: {
        create: (body) => send<LeadCreated>({ method: 'POST', path: `${base}/leads`, body }),
        update: (leadId, body) =>
          send<Lead>({ method: 'PATCH', path: `${base}/leads/${encodeURIComponent(leadId)}`, body }),
        get: (leadId) => send<Lead>({ method: 'GET', path: `${base}/leads/${encodeURIComponent(leadId)}` }),
        list: async (query = {}) =>
          (await send<LeadPage[]>({ method: 'GET', path: `${base}/leads${leadQueryString(query)}` }))[0]!,
        sync: (query = {}) =>
          syncPages(
            async (q) =>
              (await send<LeadSyncPage[]>({ method: 'GET', path: `${base}/leads${leadQueryString(q)}` }))[0]!,
            query,
          ),
      },
      invoices: {
        create: (body, options = {}) =>
          sendPlain<InvoiceCreated>({
            method: 'POST',
            path: `${base}/invoices`,
            body,
            headers: keyed(options.idempotencyKey),
          }),
        get: (invoiceId) =>
          sendPlain<Invoice>({ method: 'GET', path: `${base}/invoices/${encodeURIComponent(invoiceId)}` }),
        find: (query = {}) => sendPlain<InvoicePage>({ method: 'GET', path: `${base}/invoices${queryString(query)}` }),
        sync: async function* (query) {
          let page = await sendPlain<InvoicePage>({
            method: 'GET',
            path: `${base}/invoices${queryString(query as Record<string, string>)}`,
          });
          for (;;) {
            if (!page.nextCursor) return;
            yield page;
            const next: Record<string, string> = {
              after: page.nextCursor,
              ...(query.$limit !== undefined && { $limit: query.$limit }),
            };
            page = await sendPlain<InvoicePage>({ method: 'GET', path: `${base}/invoices${queryString(next)}` });
          }
        },
        cancel: (invoiceId, { cancelPayment = false } = {}) =>
          sendPlain<InvoiceCanceled>({
            method: 'POST',
            path: `${base}/invoices/${encodeURIComponent(invoiceId)}/cancel?cancelPayment=${cancelPayment}`,
          }),
      },
      payments: {
        add: (invoiceId, body, options = {}) =>
          sendPlain<Payment>({
            method: 'POST',
            path: `${base}/invoices/${encodeURIComponent(invoiceId)}/payments`,
            body,
            headers: keyed(options.idempotencyKey),
          }),
        list: (invoiceId, { includeRemoved = false } = {}) =>
          sendPlain<PaymentList>({
            method: 'GET',
            path: `${base}/invoices/${encodeURIComponent(invoiceId)}/payments?includeRemoved=${includeRemoved}`,
          }),
      },
      forBusiness,
      token: () => tokens.get(),
    };
  };
  return forBusiness(options.urlKey);
}
