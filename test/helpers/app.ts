import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe } from 'vitest';
import { buildApp } from '../../src/app.js';
import { testConfig, type Config } from '../../src/config.js';
import { systemClock, type Clock } from '../../src/deps.js';
import { OperatorsService } from '../../src/operator/operators.service.js';
import { openApiDocument } from '../../src/features.js';
import { openStore, type Store } from '../../src/storage/store.js';
import { Conformance, type OpenApiDocument } from './openapi.js';
import { recordWrite } from './write-paths.js';
import { availableStores, configFor, privatePostgresDatabase, type PrivateDatabase, type StoreName } from './stores.js';
import { withMigratedSqlite } from './sqlite-template.js';

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  config: Config;
  storeName: StoreName;
  close(): Promise<void>;
}

/** A real app on a real store (a fresh SQLite folder, or the shared PostgreSQL test database). */
export async function createTestApp(
  storeName: StoreName,
  overrides: Partial<Config> = {},
  clock: Clock = systemClock,
): Promise<TestApp> {
  const config = configFor(storeName, overrides);
  // A fresh embedded store starts as a copy of the run's migrated one (test/helpers/global-setup.ts);
  // migrate() below then finds every migration applied. A folder the test names is left as it is.
  if (storeName === 'sqlite' && overrides.dataDir === undefined) withMigratedSqlite(config.dataDir);
  const store = openStore(config);
  await store.migrate();
  await new OperatorsService(store, clock.now, config.passwordHashCost).ensureFirstOperator(
    config.adminEmail,
    config.adminPassword,
  );
  const app = await buildApp({ config, store, clock });
  await app.ready();
  return {
    app,
    store,
    config,
    storeName,
    async close() {
      await app.close();
      await store.close();
    },
  };
}

const stores = await availableStores();

/**
 * Runs a suite once per available store, each with its own app. The callback receives a getter,
 * since the app exists only once `beforeAll` has run.
 */
export function describeEachStore(
  title: string,
  suite: (ctx: () => TestApp) => void,
  overrides: Partial<Config> = {},
  options: { ownDatabase?: boolean } = {},
): void {
  describe.each(stores)(`${title} [%s]`, (storeName) => {
    let testApp: TestApp | undefined;
    let own: PrivateDatabase | undefined;
    beforeAll(async () => {
      // ownDatabase: a PostgreSQL database of the suite's own, for suites whose work reaches beyond
      // their own rows (a webhook worker claims every due event of the database).
      if (storeName === 'postgres' && options.ownDatabase) own = await privatePostgresDatabase('crmkit_own');
      testApp = await createTestApp(storeName, { ...overrides, ...(own && { databaseUrl: own.url }) });
    });
    afterAll(async () => {
      await testApp?.close();
      await own?.drop();
    });
    suite(() => {
      if (!testApp) throw new Error('test app not ready');
      return testApp;
    });
  });
}

export interface JsonResponse {
  status: number;
  body: any;
  headers: Record<string, string | string[] | number | undefined>;
}

/** inject() with JSON in and out. */
export async function call(
  app: FastifyInstance,
  method: InjectOptions['method'],
  url: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string>; rawBody?: string } = {},
): Promise<JsonResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let payload: string | undefined;
  if (options.rawBody !== undefined) payload = options.rawBody;
  else if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await app.inject({ method, url, headers, ...(payload !== undefined && { payload }) });
  let body: any = response.body;
  try {
    body = response.body ? JSON.parse(response.body) : undefined;
  } catch {
    // not JSON: leave the text for the assertion to show
  }
  const answer = { status: response.statusCode, body, headers: response.headers };
  const problem = documented().problem(method ?? 'GET', url, answer);
  if (problem) throw new Error(`Not as /openapi.json documents it: ${problem}`);
  recordWrite(documentedDocument(), documented().templateOf(url.split('?')[0]!), method ?? 'GET', answer.status);
  return answer;
}

let conformance: Conformance | undefined;
let document: OpenApiDocument | undefined;

function documentedDocument(): OpenApiDocument {
  document ??= openApiDocument({ config: testConfig() }) as unknown as OpenApiDocument;
  return document;
}

/**
 * Every answer a test reads through call() is held to the OpenAPI document (documented status, body
 * fitting its schema), so the document cannot drift from what the server does.
 */
function documented(): Conformance {
  conformance ??= new Conformance(documentedDocument());
  return conformance;
}
