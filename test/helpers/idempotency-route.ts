import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { buildApp } from '../../src/app.js';
import type { Config } from '../../src/config.js';
import { systemClock, type Clock } from '../../src/deps.js';
import { AppError } from '../../src/errors/app-error.js';
import { feature, type AnyFeature } from '../../src/feature.js';
import { FEATURES } from '../../src/features.js';
import { operationsOf, type ApiSection } from '../../src/openapi/operation.js';
import { OperatorsService } from '../../src/operator/operators.service.js';
import { idempotentAnswer, keepIdempotentAnswer, withAssigned } from '../../src/storage/idempotency-keys.store.js';
import type { Database } from '../../src/storage/schema.js';
import { openStore, type Store } from '../../src/storage/store.js';

/**
 * A route of the tests alone (never in FEATURES), built with the same operation() machinery as the
 * app's own, that exercises the Idempotency-Key mechanism until POST /invoices takes it: it creates a
 * real row (a "document") in a table of its own, keeping its answer in the same transaction as a
 * feature's store does. Body: `{name, holdMs?, refuse?, readOnly?, crashAfterCommit?, notAfter?}`.
 */
export const THINGS = '/api/v1/businesses/:urlKey/idem-things/:thingId/documents';
/** The vendor-style unprefixed alias of the same route. */
export const THINGS_ALIAS = '/businesses/:urlKey/idem-things/:thingId/documents';
/** The same for an operator: keys of operators and of apps never meet. */
export const ADMIN_THINGS = '/admin/v1/businesses/:urlKey/idem-things/:thingId/documents';

interface Body {
  name?: unknown;
  holdMs?: unknown;
  refuse?: unknown;
  readOnly?: unknown;
  crashAfterCommit?: unknown;
  notAfter?: unknown;
}

interface ThingsContext {
  db: Kysely<Database>;
  clock: Clock;
}

/** The table the route writes; made by the test, in either dialect. */
export async function createDocumentsTable(store: Store): Promise<void> {
  const create = sql`create table if not exists idem_test_documents (document_id text primary key, url_key text not null, thing_id text not null, name text not null)`;
  if (store.kind === 'sqlite') return void (await create.execute(store.leads.db));
  // Two servers starting at once both create it: PostgreSQL's "if not exists" is not safe against a
  // concurrent create (a unique violation on pg_type), so the creates take turns.
  await store.leads.db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('idem_test_documents'))`.execute(trx);
    await create.execute(trx);
  });
}

export async function countDocuments(store: Store, urlKey: string, thingId: string): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`select count(*) as n from idem_test_documents where url_key = ${urlKey} and thing_id = ${thingId}`.execute(
    store.leads.db,
  );
  return Number(rows[0]!.n);
}

/** `notAfter`: a validation that depends on the time, so a test can tell whether a retry was validated again. */
function validate(body: unknown, now: number): Body & { name: string } {
  const b = (body ?? {}) as Body;
  if (typeof body !== 'object' || body === null || typeof b.name !== 'string' || b.name.length === 0) {
    throw AppError.fromFieldErrors([{ field: 'name', message: 'name is required', code: 'INVALID_FIELD_VALUE' }]);
  }
  if (typeof b.notAfter === 'number' && now > b.notAfter) {
    throw AppError.fromFieldErrors([
      { field: 'notAfter', message: 'notAfter has passed', code: 'INVALID_FIELD_VALUE' },
    ]);
  }
  return b as Body & { name: string };
}

const operation = operationsOf<ThingsContext>();

const create = (path: string, operationId: string, guard: 'app' | 'operator' = 'app') =>
  operation({
    method: 'post',
    path,
    operationId,
    guard,
    idempotencyKey: true,
    summary: 'Test route: create a document',
    pathParams: { urlKey: 'The business.', thingId: 'A thing.' },
    handler:
      ({ db, clock }) =>
      async (request, reply) => {
        const body = validate(request.body, clock.now());
        const params = request.params as { urlKey: string; thingId: string };
        if (typeof body.holdMs === 'number') await new Promise((r) => setTimeout(r, body.holdMs as number));
        if (body.readOnly) return { echo: body.name };
        // `number` is decided inside the transaction, as an invoice number is: kept through `assigned`.
        const document = {
          documentId: randomBytes(12).toString('hex'),
          thingId: params.thingId,
          number: 0,
          name: body.name,
          createdAt: clock.now(),
        };
        const answer = idempotentAnswer(request.idempotencyClaim, 201, document);
        const assigned = await db.transaction().execute(async (trx) => {
          await sql`insert into idem_test_documents (document_id, url_key, thing_id, name)
        values (${document.documentId}, ${params.urlKey}, ${params.thingId}, ${body.name})`.execute(trx);
          const { rows } = await sql<{ n: number }>`select count(*) as n from idem_test_documents
        where url_key = ${params.urlKey} and thing_id = ${params.thingId}`.execute(trx);
          const decided = { number: Number(rows[0]!.n) };
          await keepIdempotentAnswer(trx, answer, decided);
          // A refusal decided inside the transaction (as PAYMENT_EXCEEDS_DUE is): nothing is written, the key is released.
          if (body.refuse) throw new AppError('IDEMPOTENCY_CONFLICT', 'refused inside the transaction');
          return decided;
        });
        // A process that dies after its commit, before it answers.
        if (body.crashAfterCommit) process.kill(process.pid, 'SIGKILL');
        reply.code(201);
        return withAssigned(document, assigned);
      },
  });

const thingsSection: ApiSection<ThingsContext> = {
  tag: { name: 'Idempotency test', description: 'Tests only.' },
  operations: [
    create(THINGS, 'idemTestCreate'),
    create(THINGS_ALIAS, 'idemTestCreateAlias'),
    create(ADMIN_THINGS, 'idemTestCreateOperator', 'operator'),
  ],
};

export const thingsFeature: AnyFeature = feature<ThingsContext>({
  sections: [thingsSection],
  context: ({ deps }) => ({ db: deps.store.leads.db, clock: deps.clock }),
});

/** The app with the test route, on a real store (the caller closes both). */
export async function appWithThings(config: Config, clock: Clock = systemClock) {
  const store = openStore(config);
  await store.migrate();
  await createDocumentsTable(store);
  await new OperatorsService(store, clock.now, config.passwordHashCost).ensureFirstOperator(
    config.adminEmail,
    config.adminPassword,
  );
  const app = await buildApp({ config, store, clock }, [...FEATURES, thingsFeature]);
  return { app, store };
}
