import { opaqueId } from '../auth/secrets.js';
import type { CachedLoader } from '../cache/cached-loader.js';
import { buildUnderivedClient } from '../clients/client.build.js';
import { deriveClient } from '../clients/client.derive.js';
import { AppError } from '../errors/app-error.js';
import type { FieldError } from '../errors/codes.js';
import type { ContactRecord, InsertLeadResult, LeadInsert } from '../storage/leads.store.js';
import type { Store } from '../storage/store.js';
import type { EventPlan, WebhookEvents } from '../webhooks/events.js';
import type { LeadContext } from './lead-context.js';
import type { BlockValues } from './lead.blocks.js';
import { createRequestOf, sameCreateRequest, withoutGoneCustomFields, type CreateRequest } from './lead.compare.js';
import { todayIn } from './lead.dates.js';
import { createdEvents, editedEvents, newClientEvents } from './lead.events.js';
import { applyEdit, type ClientRef, type EditRefs } from './lead.edit.js';
import { editChanges, presentFieldChange } from './lead-history.present.js';
import { presentActivity, presentLead } from './lead.present.js';
import type { ContactSnapshot, CustomerSnapshot, StoredLead } from '../storage/leads.records.js';
import type { AuditEntry, StoredClient } from '../storage/records.js';
import { inBodyOrder, validateCreate, validatePatch, type CreateInput } from './lead.validate.js';

export type Lead = Record<string, unknown>;
export type CreateOutcome = { lead: Lead; idempotent: boolean };
/** A create decided and not yet written: the store's insert, and the request a retry is compared with. */
type PreparedCreate = { insert: LeadInsert; request: CreateRequest };
/** A validated create body; `retryOnly`: its refusal, answered unless a stored lead takes it as a retry. */
type ValidCreate = { input: CreateInput; retryOnly?: unknown };
/** What creates are decided against, read before: stored leads by externalId, clients and contacts by id. */
interface CreateReads {
  existing: Map<string, { lead: StoredLead; createRequest: unknown }>;
  clients: Map<string, StoredClient | undefined>;
  contacts: Map<string, ContactRecord | undefined>;
}

/** Who writes: the API (an app), or an operator in the dashboard (author: their e-mail). */
export interface Author {
  origin: 'API' | 'DASHBOARD';
  author: string;
}

export const ACTIVITIES_PAGE = 50;
/** Rows validated between two yields to the event loop (an import's chunk, a preview). */
export const YIELD_EVERY = 50;
/** Lets the requests that arrived meanwhile (I/O callbacks) run before the caller goes on. */
export const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

const notFound = () => new AppError('LEAD_NOT_FOUND', 'Lead not found');

/** Lead use cases (docs/leads.md, and the operator's create, edit, get and remove). */
export class LeadsService {
  constructor(
    private readonly store: Store,
    private readonly contexts: CachedLoader<LeadContext>,
    private readonly now: () => number,
    private readonly events: WebhookEvents,
  ) {}

  async context(urlKey: string): Promise<LeadContext> {
    const context = await this.contexts.get(urlKey);
    if (!context) throw new AppError('BUSINESS_NOT_FOUND', 'No business with this urlKey');
    return context;
  }

  /**
   * Validation first (400 before 409), then the stored lead by externalId is compared; a new one is
   * stored with the client and contact it makes in one transaction (INSERT … ON CONFLICT DO NOTHING:
   * of concurrent creates exactly one stores, the others compare against it).
   */
  /** `audit`: an operator's line, written with the lead (its detail gains the leadId). */
  async create(urlKey: string, body: unknown, by: Author, audit: AuditEntry | null = null): Promise<CreateOutcome> {
    const context = await this.context(urlKey);
    const prepared = await this.prepareCreate(urlKey, body, by, context, audit);
    if ('done' in prepared) return prepared.done;
    const result = await this.store.leads.insertLead(urlKey, prepared.insert);
    const outcome = this.finishCreate(prepared, result, context);
    if (!outcome.idempotent && prepared.insert.events.length > 0) this.events.sent();
    return outcome;
  }

  /**
   * Many creates (an import's chunk), each decided as `create` decides one, against reads made once for
   * the chunk (its externalIds in one query, the clients and contacts it names batched), and written in
   * one transaction (the store's insertLeads, a multi-row INSERT per table); a row refused, or a conflict
   * found on writing, is that row's error. A chunk the store cannot write as a whole (a constraint no
   * check foresaw) is written one row at a time, so each row's error stays its own.
   */
  async createMany(urlKey: string, bodies: unknown[], by: Author): Promise<(CreateOutcome | { error: unknown })[]> {
    const context = await this.context(urlKey);
    const plan = await this.events.plan(urlKey);
    const answers: (CreateOutcome | { error: unknown })[] = new Array(bodies.length);
    const valid: { index: number; body: unknown; checked: ValidCreate }[] = [];
    for (const [index, body] of bodies.entries()) {
      try {
        valid.push({ index, body, checked: this.validCreate(body, context, by, this.now()) });
      } catch (error) {
        answers[index] = { error };
      }
      // Validation is the chunk's CPU: other requests are answered between slices of it.
      if (index % YIELD_EVERY === YIELD_EVERY - 1) await yieldToOthers();
    }
    const reads = await this.readsOf(
      urlKey,
      valid.map((v) => v.checked.input),
    );
    const pending: { index: number; prepared: PreparedCreate }[] = [];
    for (const [i, { index, body, checked }] of valid.entries()) {
      // Deciding (the new rows, their events' payloads) is CPU too.
      if (i % YIELD_EVERY === YIELD_EVERY - 1) await yieldToOthers();
      try {
        const prepared = this.decideCreate(body, checked, reads, by, context, plan, null);
        if ('done' in prepared) answers[index] = prepared.done;
        else pending.push({ index, prepared });
      } catch (error) {
        answers[index] = { error };
      }
    }
    const results = await this.insertChunk(
      urlKey,
      pending.map((p) => p.prepared.insert),
    );
    let sent = false;
    for (const [i, { index, prepared }] of pending.entries()) {
      try {
        const result = results[i]!;
        if ('error' in result) throw result.error;
        const outcome = this.finishCreate(prepared, result, context);
        sent ||= !outcome.idempotent && prepared.insert.events.length > 0;
        answers[index] = outcome;
      } catch (error) {
        answers[index] = { error };
      }
    }
    if (sent) this.events.sent();
    return answers;
  }

  /**
   * The chunk in one transaction; if the store refuses it as a whole, each row in a transaction of its
   * own, so that only the row the store refuses fails, with SERVICE_ERROR as its error (its cause kept).
   */
  private async insertChunk(
    urlKey: string,
    inserts: LeadInsert[],
  ): Promise<(InsertLeadResult | { error: AppError })[]> {
    if (inserts.length === 0) return [];
    try {
      return await this.store.leads.insertLeads(urlKey, inserts);
    } catch {
      const results: (InsertLeadResult | { error: AppError })[] = [];
      for (const insert of inserts) {
        try {
          results.push(await this.store.leads.insertLead(urlKey, insert));
        } catch (cause) {
          const error = new AppError('SERVICE_ERROR', 'This row could not be stored');
          error.cause = cause;
          results.push({ error });
        }
      }
      return results;
    }
  }

  /** What creates are decided against: the stored leads of their externalIds, the clients and contacts they name. */
  private async readsOf(urlKey: string, inputs: CreateInput[]): Promise<CreateReads> {
    const distinct = (values: (string | undefined | null)[]) => [
      ...new Set(values.filter((v): v is string => typeof v === 'string')),
    ];
    const clientIds = distinct(inputs.map((input) => input.customer?.values.get('clientId')));
    const contactIds = distinct(inputs.map((input) => input.contact?.values.get('contactId')));
    const [existing, clients, contacts] = await Promise.all([
      this.store.leads.findByExternalIds(urlKey, distinct(inputs.map((input) => input.externalId))),
      // PostgreSQL batches the reads of a turn into one statement (the stores' Batcher); SQLite's are point reads.
      Promise.all(clientIds.map((id) => this.store.data.findClient(urlKey, id))),
      Promise.all(contactIds.map((id) => this.store.leads.findContact(urlKey, id))),
    ]);
    return {
      existing,
      clients: new Map(clientIds.map((id, i) => [id, clients[i]])),
      contacts: new Map(contactIds.map((id, i) => [id, contacts[i]])),
    };
  }

  /** A create decided against what is stored: an answer already (a retry), or the insert to write. */
  private async prepareCreate(
    urlKey: string,
    body: unknown,
    by: Author,
    context: LeadContext,
    audit: AuditEntry | null,
  ): Promise<PreparedCreate | { done: CreateOutcome }> {
    const checked = this.validCreate(body, context, by, this.now());
    const { input } = checked;
    const clientId = input.customer?.values.get('clientId');
    const contactId = input.contact?.values.get('contactId');
    const [existing, client, contact] = await Promise.all([
      input.externalId === null ? undefined : this.store.leads.findByExternalId(urlKey, input.externalId),
      clientId === undefined ? undefined : this.store.data.findClient(urlKey, clientId),
      contactId === undefined ? undefined : this.store.leads.findContact(urlKey, contactId),
    ]);
    const reads: CreateReads = {
      existing: new Map(existing && input.externalId !== null ? [[input.externalId, existing]] : []),
      clients: new Map(clientId === undefined ? [] : [[clientId, client]]),
      contacts: new Map(contactId === undefined ? [] : [[contactId, contact]]),
    };
    return this.decideCreate(body, checked, reads, by, context, await this.events.plan(urlKey), audit);
  }

  /**
   * A validated create decided against the reads: the references first (400 before 409), then the
   * stored lead of its externalId compared; else the new lead, its client and contact, its events.
   */
  private decideCreate(
    body: unknown,
    { input, retryOnly }: ValidCreate,
    reads: CreateReads,
    by: Author,
    context: LeadContext,
    plan: EventPlan,
    audit: AuditEntry | null,
  ): PreparedCreate | { done: CreateOutcome } {
    const clientId = input.customer?.values.get('clientId');
    const contactId = input.contact?.values.get('contactId');
    const refs = resolveReferences(
      input.customer,
      input.contact,
      clientId === undefined ? undefined : reads.clients.get(clientId),
      contactId === undefined ? undefined : reads.contacts.get(contactId),
      'create',
      Object.keys(body as object),
    );
    const request = createRequestOf(input, { client: !!refs.client, contact: !!refs.contact }, context);
    const existing = input.externalId === null ? undefined : reads.existing.get(input.externalId);
    if (existing) return { done: this.retried(existing.lead, existing.createRequest, request, context) };
    if (retryOnly) throw retryOnly;
    // The create's time, read after validation and the reads (its sync position is its transaction's: 011-sync-positions).
    const at = this.now();
    const lead = newLead(input, refs, context, by, at);
    const newClient = refs.client
      ? null
      : { clientId: lead.data.customer.clientId, data: newClientValue(lead.data.customer, context) };
    // Written only if this create inserts: an identical retry, a conflict or a rollback sends nothing.
    const leadEvents = createdEvents(plan, lead, context);
    const events = newClient
      ? [...newClientEvents(plan, newClient.clientId, newClient.data, at, context), ...leadEvents]
      : leadEvents;
    const insert: LeadInsert = {
      lead,
      createRequest: request,
      newClient,
      newContact: refs.contact ? null : contactRecord(lead.data.contact),
      activity: {
        activityId: opaqueId('ac_'),
        type: 'CREATED',
        author: by.author,
        body: null,
        fromPipelineId: null,
        toPipelineId: lead.pipelineId,
        fromStageId: null,
        toStageId: lead.stageId,
        reasonKeys: lead.data.reasonKeys,
        createdAt: at,
      },
      events,
      audit: audit && { ...audit, detail: { ...(audit.detail as object), leadId: lead.leadId } },
    };
    return { insert, request };
  }

  /** The answer of a prepared create once the store wrote it (or found its externalId taken). */
  private finishCreate(prepared: PreparedCreate, result: InsertLeadResult, context: LeadContext): CreateOutcome {
    if (result.outcome === 'no-business') throw new AppError('BUSINESS_NOT_FOUND', 'No business with this urlKey');
    if (result.outcome === 'exists') return this.retried(result.lead, result.createRequest, prepared.request, context);
    return { lead: presentLead(prepared.insert.lead, context), idempotent: false };
  }

  /**
   * The validated create. A body refused only for custom fields that are no longer live (archived,
   * removed, or all of them turned off) is read without them when its externalId names a stored lead:
   * the retry of a create made before, compared without those values. `retryOnly` is the refusal to
   * answer when no stored lead takes it.
   */
  private validCreate(body: unknown, context: LeadContext, by: Author, now: number): ValidCreate {
    const mode = by.origin === 'API' ? 'api' : 'operator';
    const today = todayIn(context.timeZone, now);
    try {
      return { input: validateCreate(body, context, today, mode) };
    } catch (error) {
      const trimmed = withoutGoneCustomFields(body, error, context);
      if (!trimmed) throw error;
      return { input: validateCreate(trimmed, context, today, mode), retryOnly: error };
    }
  }

  private retried(
    stored: StoredLead,
    storedRequest: unknown,
    request: CreateRequest,
    context: LeadContext,
  ): CreateOutcome {
    if (stored.removed)
      throw new AppError('IDEMPOTENCY_CONFLICT', 'This externalId belonged to a lead that was removed');
    if (!sameCreateRequest(storedRequest, request, context)) {
      throw new AppError(
        'IDEMPOTENCY_CONFLICT',
        'A lead with this externalId already exists with different details',
        undefined,
        { existingLeadId: stored.leadId },
      );
    }
    return { lead: presentLead(stored, context), idempotent: true };
  }

  /** The client and contact a block names by reference, read and resolved (resolveReferences). */
  private async references(
    urlKey: string,
    customer: BlockValues | undefined,
    contact: BlockValues | undefined,
    mode: 'create' | 'edit',
    order: string[],
  ): Promise<EditRefs> {
    const clientId = customer?.values.get('clientId');
    const contactId = contact?.values.get('contactId');
    const [client, found] = await Promise.all([
      clientId === undefined ? undefined : this.store.data.findClient(urlKey, clientId),
      contactId === undefined ? undefined : this.store.leads.findContact(urlKey, contactId),
    ]);
    return resolveReferences(customer, contact, client, found, mode, order);
  }

  /**
   * A partial edit, decided against the lead as read and written only if the lead is still that version
   * (the store's check): concurrent edits apply one after the other, none lost. `now` is only for
   * validation (followUpDate's today). Its events are decided against the same read (so a no-op sends
   * nothing), from subscriptions read once before.
   */
  async edit(
    urlKey: string,
    leadId: string,
    body: unknown,
    by: Author,
    audit: AuditEntry | null = null,
  ): Promise<Lead> {
    const context = await this.context(urlKey);
    const now = this.now();
    const input = validatePatch(body, context, todayIn(context.timeZone, now));
    const order = Object.keys(body as object);
    const refs = await this.references(urlKey, input.customer, input.contact, 'edit', order);
    const plan = await this.events.plan(urlKey);
    // Decided against the lead as read and written only if it is still that version; when another edit
    // wrote first, decided again against what it wrote: concurrent edits apply one after the other.
    for (;;) {
      const current = await this.store.leads.findLead(urlKey, leadId);
      if (!current || current.removed) throw notFound();
      // Never below the stored time (processes' clocks may differ): a lead's edits are stamped in order.
      const at = Math.max(this.now(), current.updatedAt);
      const change = applyEdit(current, input, refs, { context, author: by.author, now: at, order });
      const events = change.lead ? editedEvents(plan, current, change.lead, context) : [];
      const line = audit && {
        ...audit,
        detail: {
          ...(audit.detail as object),
          leadId,
          changes: editChanges(current, change.lead, change.activities, context),
        },
      };
      const edited = await this.store.leads.writeEdit(urlKey, current, { ...change, events, audit: line });
      if (edited === 'stale') continue;
      if (!edited) throw notFound();
      if (events.length > 0) this.events.sent();
      return presentLead(edited, context);
    }
  }

  async get(urlKey: string, leadId: string): Promise<Lead> {
    const [context, stored] = await Promise.all([this.context(urlKey), this.store.leads.findLead(urlKey, leadId)]);
    if (!stored || stored.removed) throw notFound();
    return presentLead(stored, context);
  }

  /**
   * Oldest first, a page at a time; `after` is the nextCursor of the page before. FIELD_CHANGE entries
   * only when asked for (`include=fieldChanges`): the spec's answer stays as it was (docs/decisions.md).
   */
  async activities(
    urlKey: string,
    leadId: string,
    after: string | null,
    fieldChanges = false,
  ): Promise<{ items: Lead[]; nextCursor: string | null }> {
    const context = await this.context(urlKey);
    const page = await this.store.leads.listActivities(urlKey, leadId, after, ACTIVITIES_PAGE + 1, fieldChanges);
    if (page === undefined) throw notFound();
    if (page === 'badCursor')
      throw new AppError('INVALID_QUERY_VALUE', "after is not a cursor of this lead's activity");
    const items = page.slice(0, ACTIVITIES_PAGE);
    return {
      items: items
        .map((a) => (a.type === 'FIELD_CHANGE' ? presentFieldChange(a, context) : presentActivity(a, context)))
        .filter((a) => a !== undefined),
      nextCursor: page.length > ACTIVITIES_PAGE ? items[items.length - 1]!.activityId : null,
    };
  }

  async remove(
    urlKey: string,
    leadId: string,
    audit: AuditEntry | null = null,
  ): Promise<{ leadId: string; removed: true }> {
    await this.context(urlKey);
    if (!(await this.store.leads.removeLead(urlKey, leadId, this.now(), audit))) throw notFound();
    return { leadId, removed: true };
  }
}

/**
 * The client and contact a block names by reference, as read: visible clients only. On create an unknown
 * reference falls back to the block's name (a new record); without a name, and always on edit, it is
 * CLIENT_NOT_FOUND / CONTACT_NOT_FOUND, a 400 like every other body error.
 */
function resolveReferences(
  customer: BlockValues | undefined,
  contact: BlockValues | undefined,
  client: StoredClient | undefined,
  found: ContactRecord | undefined,
  mode: 'create' | 'edit',
  order: string[],
): EditRefs {
  const clientId = customer?.values.get('clientId');
  const contactId = contact?.values.get('contactId');
  const errors: FieldError[] = [];
  const refs: EditRefs = {};
  if (client && client.status === 'active')
    refs.client = clientRef(client.clientId!, client.data as Record<string, unknown>);
  else if (clientId !== undefined && (mode === 'edit' || !customer!.values.has('name'))) {
    errors.push({
      field: 'customer.clientId',
      code: 'CLIENT_NOT_FOUND',
      message: 'customer.clientId does not name a client of this business',
    });
  }
  if (found) refs.contact = found;
  else if (contactId !== undefined && (mode === 'edit' || !contact!.values.has('name'))) {
    errors.push({
      field: 'contact.contactId',
      code: 'CONTACT_NOT_FOUND',
      message: 'contact.contactId does not name a contact of this business',
    });
  }
  if (errors.length > 0) throw AppError.fromFieldErrors(inBodyOrder(errors, order));
  return refs;
}

function clientRef(clientId: string, data: Record<string, unknown>): ClientRef {
  return {
    clientId,
    name: String(data.name ?? ''),
    country: typeof data.country === 'string' ? data.country : 'IN',
    phone: typeof data.phone === 'string' ? data.phone : null,
  };
}

function newLead(input: CreateInput, refs: EditRefs, context: LeadContext, by: Author, now: number): StoredLead {
  const leadId = opaqueId('ld_');
  const c = (key: string) => input.customer.values.get(key);
  const k = (key: string) => input.contact.values.get(key);
  const client = refs.client;
  const customer: CustomerSnapshot = {
    clientId: client?.clientId ?? `lead-${leadId}`,
    name: c('name') ?? client!.name,
    country: c('country') ?? client?.country ?? 'IN',
    phone: c('phone') ?? client?.phone ?? null,
    address: c('address') ?? null,
    city: c('city') ?? null,
    state: c('state') ?? null,
    pincode: c('pincode') ?? null,
  };
  const found = refs.contact;
  const contact: ContactSnapshot = {
    contactId: found?.contactId ?? opaqueId('ct_'),
    name: k('name') ?? found!.name,
    email: k('email') ?? found?.email ?? null,
    phone: k('phone') ?? found?.phone ?? null,
    country: k('country') ?? found?.country ?? 'IN',
    designation: k('designation') ?? null,
  };
  return {
    leadId,
    externalId: input.externalId,
    removed: false,
    source: by.origin,
    pipelineId: input.pipeline.id,
    stageId: input.stage.id,
    leadSourceKey: input.leadSourceKey ?? null,
    assigneeId: input.assigneeId ?? null,
    followUpDate: input.followUpDate ?? null,
    data: {
      customer,
      contact,
      subject: input.subject ?? null,
      details: input.details ?? null,
      budget: input.budget
        ? { amount: input.budget.amount!, currency: input.budget.currency ?? context.business.currency }
        : null,
      reasonKeys: input.reasonKeys,
      tagIds: [...(input.tagIds ?? [])].sort(),
      customFields: input.customFields ?? {},
    },
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
}

/** A client made by a lead: a client like any other in every respect (derived fields included). */
function newClientValue(customer: CustomerSnapshot, context: LeadContext): unknown {
  const values = new Map<string, unknown>([
    ['clientId', customer.clientId],
    ['name', customer.name],
    ['country', customer.country],
  ]);
  if (customer.phone !== null) values.set('phone', customer.phone);
  return deriveClient(buildUnderivedClient(values, 'api'), context.business.country);
}

function contactRecord(contact: ContactSnapshot): ContactRecord {
  return {
    contactId: contact.contactId,
    name: contact.name,
    email: contact.email,
    phone: contact.phone,
    country: contact.country,
  };
}
