import type { FastifyInstance } from 'fastify';

/**
 * A feature module's routes, by who may call them: `business` routes run behind the app-token guard
 * (`/api/v1/businesses/:urlKey/...`), `operator` routes behind the operator-session guard
 * (`/admin/v1/...`), `open` routes with no guard (405 answers, health, the page).
 */
export interface Feature {
  business?(scope: FastifyInstance): Promise<void> | void;
  operator?(scope: FastifyInstance): Promise<void> | void;
  open?(scope: FastifyInstance): Promise<void> | void;
}
