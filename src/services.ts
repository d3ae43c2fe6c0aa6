import { AppRegistry } from './auth/app-registry.js';
import { AuthFailureLimiter } from './auth/auth-failures.js';
import { AuthService } from './auth/auth.service.js';
import type { CachedLoader } from './cache/cached-loader.js';
import { leadContextCache, type LeadContext } from './leads/lead-context.js';
import { TokenService } from './auth/token.service.js';
import type { Deps } from './deps.js';
import { AppsService } from './operator/apps.service.js';
import { AuditService } from './operator/audit.service.js';
import { BusinessesService } from './operator/businesses.service.js';
import { OperatorsService } from './operator/operators.service.js';

/** What feature modules share: built once per app. */
export interface Services {
  registry: AppRegistry;
  tokens: TokenService;
  auth: AuthService;
  businesses: BusinessesService;
  apps: AppsService;
  operators: OperatorsService;
  audit: AuditService;
  /** The one cached lead context per business (configuration lead writes and list filters resolve names against). */
  leadContexts: CachedLoader<LeadContext>;
  /** Hit and miss counts of every cache, by name: feature modules add theirs; /metrics reads them. */
  caches: Record<string, () => { hits: number; misses: number }>;
}

export async function createServices(deps: Deps): Promise<Services> {
  const { store, config, clock } = deps;
  const now = () => clock.now();
  const registry = new AppRegistry(store, config.cacheTtlMs);
  const tokens = new TokenService(config, registry, await store.accounts.signingKeys(), now);
  const limiter = new AuthFailureLimiter(store, config, now, deps.logger || undefined);
  const leadContexts = leadContextCache(store, config);
  return {
    registry, tokens,
    auth: new AuthService(store, registry, tokens, limiter),
    businesses: new BusinessesService(store, now),
    apps: new AppsService(store, registry, config, now),
    operators: new OperatorsService(store, now),
    audit: new AuditService(store, now),
    leadContexts,
    caches: { apps: () => registry.stats, leadContext: () => leadContexts },
  };
}
