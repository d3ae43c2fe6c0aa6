/** What the webhooks store hands out and takes: plain records with public identifiers, and the outbox rows. */

export interface EndpointRecord {
  id: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  enabled: boolean;
  disabledReason: string | null;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: number | null;
  createdAt: number;
  updatedAt: number;
}

export type EndpointPatch = Partial<Pick<EndpointRecord, 'url' | 'description' | 'eventTypes' | 'enabled'>>;

/** What the emitting side needs, cached per business: its enabled endpoints and what each wants. */
export interface Subscriptions {
  endpoints: { pk: number; eventTypes: Set<string> }[];
}

/** One outbox row to write: an event for one endpoint. */
export interface OutboxRow {
  endpointPk: number;
  messageId: string;
  eventType: string;
  /** Events with the same key reach an endpoint in the order they were written. */
  resourceKey: string;
  payload: string;
  createdAt: number;
}

export interface ClaimedDelivery {
  id: number;
  endpointPk: number;
  messageId: string;
  eventType: string;
  payload: string;
  attempt: number;
  url: string;
  secrets: string[];
}

export interface AttemptRecord {
  at: number;
  eventId: string;
  eventType: string;
  attempt: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export type AttemptResult = Omit<AttemptRecord, 'eventId' | 'eventType' | 'attempt'>;
/** Delivered, or failed: due again at `retryAt`, or given up (null), disabling the endpoint unless `disable` is false. */
export type FinishOutcome = 'delivered' | { retryAt: number | null; disable?: boolean };
export interface FinishedDelivery {
  delivery: ClaimedDelivery;
  attempt: AttemptResult;
  outcome: FinishOutcome;
}
