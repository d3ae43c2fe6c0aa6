import { AppRegistry } from './auth/app-registry.js';
import { AuthFailureLimiter } from './auth/auth-failures.js';
import { AuthService } from './auth/auth.service.js';
import type { CachedLoader } from './cache/cached-loader.js';
import { leadContextCache, type LeadContext } from './leads/lead-context.js';
import { LastUsedRecorder } from './auth/last-used.js';
import { OperatorRegistry } from './auth/operator-registry.js';
import { TokenService } from './auth/token.service.js';
import type { Deps } from './deps.js';
import { InvoiceMailQueue } from './documents/invoice-mail.queue.js';
import { AppsService } from './operator/apps.service.js';
import { AuditService } from './operator/audit.service.js';
import { BusinessesService } from './operator/businesses.service.js';
import { OperatorsService } from './operator/operators.service.js';
import { WebhookEvents } from './webhooks/events.js';
import { RequestMetrics } from './ops/metrics.js';

/** What feature modules share: built once per app. */
export interface Services {
  registry: AppRegistry;
  operatorRegistry: OperatorRegistry;
  lastUsed: LastUsedRecorder;
  tokens: TokenService;
  auth: AuthService;
  businesses: BusinessesService;
  apps: AppsService;
  operators: OperatorsService;
  audit: AuditService;
  /** The one cached lead context per business (configuration lead writes and list filters resolve names against). */
  leadContexts: CachedLoader<LeadContext>;
  /** Webhook events: what features that change a resource call inside their write transaction. */
  events: WebhookEvents;
  /** Invoice mail: whether a create queues its `email` (SMTP_URL set), and the wake-up of this process's sender. */
  mail: InvoiceMailQueue;
  /** Hit and miss counts of every cache, by name: feature modules add theirs; /metrics reads them. */
  caches: Record<string, () => { hits: number; misses: number }>;
  /** Answers counted by method, route and status (the root's onResponse hook), for /metrics. */
  requestMetrics: RequestMetrics;
}

export async function createServices(deps: Deps): Promise<Services> {
  const { store, config, clock } = deps;
  const now = () => clock.now();
  const registry = new AppRegistry(store, config.cacheTtlMs);
  const tokens = new TokenService(config, registry, await store.accounts.signingKeys(), now);
  const limiter = new AuthFailureLimiter(store, config, now, deps.logger || undefined);
  const leadContexts = leadContextCache(store, config);
  const events = new WebhookEvents(store, config, now);
  const operatorRegistry = new OperatorRegistry(store, config.cacheTtlMs);
  const lastUsed = new LastUsedRecorder(store, now);
  return {
    registry,
    operatorRegistry,
    lastUsed,
    tokens,
    auth: new AuthService(store, registry, tokens, limiter, lastUsed, operatorRegistry, config.passwordHashCost),
    businesses: new BusinessesService(store, registry, now),
    apps: new AppsService(store, registry, config, now),
    operators: new OperatorsService(store, now, config.passwordHashCost),
    audit: new AuditService(store, now),
    leadContexts,
    events,
    mail: new InvoiceMailQueue(config.smtpUrl !== null),
    caches: { apps: () => registry.stats, leadContext: () => leadContexts, webhooks: () => events.cache },
    requestMetrics: new RequestMetrics(),
  };
}
