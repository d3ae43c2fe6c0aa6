import { AppRegistry } from './auth/app-registry.js';
import { AuthFailureLimiter } from './auth/auth-failures.js';
import { AuthService } from './auth/auth.service.js';
import { LastUsedRecorder } from './auth/last-used.js';
import { OperatorRegistry } from './auth/operator-registry.js';
import { TokenService } from './auth/token.service.js';
import type { Deps } from './deps.js';
import { AppsService } from './operator/apps.service.js';
import { AuditService } from './operator/audit.service.js';
import { BusinessesService } from './operator/businesses.service.js';
import { OperatorsService } from './operator/operators.service.js';

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
  /** Hit and miss counts of every cache, by name: feature modules add theirs; /metrics reads them. */
  caches: Record<string, () => { hits: number; misses: number }>;
}

export async function createServices(deps: Deps): Promise<Services> {
  const { store, config, clock } = deps;
  const now = () => clock.now();
  const registry = new AppRegistry(store, config.cacheTtlMs);
  const tokens = new TokenService(config, registry, await store.accounts.signingKeys(), now);
  const limiter = new AuthFailureLimiter(store, config, now, deps.logger || undefined);
  const operatorRegistry = new OperatorRegistry(store, config.cacheTtlMs);
  const lastUsed = new LastUsedRecorder(store, now);
  return {
    registry, operatorRegistry, lastUsed, tokens,
    auth: new AuthService(store, registry, tokens, limiter, lastUsed, operatorRegistry),
    businesses: new BusinessesService(store, registry, now),
    apps: new AppsService(store, registry, config, now),
    operators: new OperatorsService(store, now),
    audit: new AuditService(store, now),
    caches: { apps: () => registry.stats },
  };
}
