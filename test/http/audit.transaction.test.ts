import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sqliteDriver, type SqliteDatabase } from '../../src/storage/sqlite-driver.js';
import { call, describeEachStore, type JsonResponse, type TestApp } from '../helpers/app.js';
import { createInvoice, seedInvoiceTenant, type InvoiceTenant } from '../helpers/invoices.js';
import { createApp, randomKey } from '../helpers/seed.js';

/**
 * Operator audit lines are written in the transaction of the change they record (docs/decisions.md "Audit
 * lines in the change's transaction"). A trigger installed here refuses every audit insert while a flag row
 * exists: each operator write then answers 500 and leaves its record as it was, and with the flag gone the
 * same request succeeds and leaves exactly one line.
 */

/** SQL run beside the app, on its own connection: the trigger, the flag, and reads of the rows a write changes. */
interface Raw {
  rows(query: string): Promise<unknown[]>;
  run(statement: string): Promise<void>;
  close(): Promise<void>;
}

async function rawFor(t: TestApp): Promise<Raw> {
  if (t.storeName === 'sqlite') {
    const db: SqliteDatabase = new (sqliteDriver())(t.store.sqlitePath!);
    db.pragma('busy_timeout = 5000');
    return {
      rows: async (query) => db.prepare(query).all(),
      run: async (statement) => void db.exec(statement),
      close: async () => void db.close(),
    };
  }
  const client = new pg.Client({ connectionString: t.config.databaseDirectUrl ?? t.config.databaseUrl! });
  await client.connect();
  return {
    rows: async (query) => (await client.query(query)).rows,
    run: async (statement) => void (await client.query(statement)),
    close: () => client.end(),
  };
}

const REFUSING_TRIGGER = {
  sqlite: [
    'create table audit_refusal (flag integer)',
    `create trigger refuse_audit before insert on audit_log when exists (select 1 from audit_refusal)
     begin select raise(abort, 'audit line refused by the test'); end`,
  ],
  postgres: [
    'create table audit_refusal (flag integer)',
    `create function refuse_audit() returns trigger language plpgsql as $$
     begin
       if exists (select 1 from audit_refusal) then raise exception 'audit line refused by the test'; end if;
       return new;
     end $$`,
    'create trigger refuse_audit before insert on audit_log for each row execute function refuse_audit()',
  ],
};

interface Env {
  t: TestApp;
  tenant: InvoiceTenant;
  operator: string;
  /** The business's admin path. */
  admin: string;
  raw: Raw;
}

/** One operator write: what to send, the rows it changes (a query), and the audit action it records. */
interface Write {
  act(): Promise<JsonResponse>;
  state: string;
}

type Case = [family: string, action: string, prepare: (env: Env) => Promise<Write>];

const q = (value: string) => `'${value.replaceAll("'", "''")}'`;
const send =
  (env: Env, method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown, token = env.operator) =>
  () =>
    call(env.t.app, method, url, { token, ...(body !== undefined && { body }) });

async function newBusiness(env: Env): Promise<string> {
  const urlKey = randomKey('aud');
  const r = await call(env.t.app, 'POST', '/admin/v1/businesses', {
    token: env.operator,
    body: { name: urlKey, country: 'IN', urlKey },
  });
  expect(r.status).toBe(201);
  return urlKey;
}

async function newClient(env: Env, archived = false): Promise<string> {
  const clientId = randomKey('cl');
  const r = await call(env.t.app, 'POST', `/api/v1/businesses/${env.tenant.urlKey}/clients`, {
    token: env.tenant.token,
    body: { clientId, name: 'Audited client' },
  });
  expect(r.status).toBeLessThan(300);
  if (archived) await send(env, 'POST', `${env.admin}/clients/${clientId}/archive`)();
  return clientId;
}

async function newEndpoint(env: Env): Promise<string> {
  const r = await call(env.t.app, 'POST', `${env.admin}/webhooks`, {
    token: env.operator,
    body: { url: `https://hooks.example.com/${randomKey('h')}`, eventTypes: ['client.created'] },
  });
  expect(r.status).toBe(201);
  return r.body.data.id;
}

const appRow = (appId: string, columns: string) => `select ${columns} from apps where app_id = ${q(appId)}`;
const clientRow = (clientId: string) => `select status, updated_at from clients where client_id = ${q(clientId)}`;
const endpointRow = (id: string) =>
  `select url, description, secret, updated_at from webhook_endpoints where public_id = ${q(id)}`;
const outboxOf = (id: string) =>
  `select count(*) as n from webhook_outbox where endpoint_pk = (select id from webhook_endpoints where public_id = ${q(id)})`;

const CASES: Case[] = [
  [
    'businesses',
    'business.create',
    async (env) => {
      const urlKey = randomKey('aud');
      return {
        act: send(env, 'POST', '/admin/v1/businesses', { name: 'Audited', country: 'IN', urlKey }),
        state: `select name from businesses where url_key = ${q(urlKey)}`,
      };
    },
  ],
  [
    'businesses',
    'business.update',
    async (env) => ({
      act: send(env, 'PATCH', env.admin, { name: randomKey('renamed') }),
      state: `select name, updated_at from businesses where url_key = ${q(env.tenant.urlKey)}`,
    }),
  ],
  [
    'businesses',
    'business.archive',
    async (env) => {
      const urlKey = await newBusiness(env);
      return {
        act: send(env, 'POST', `/admin/v1/businesses/${urlKey}/archive`),
        state: `select archived_at from businesses where url_key = ${q(urlKey)}`,
      };
    },
  ],
  [
    'apps',
    'app.create',
    async (env) => {
      const name = randomKey('app');
      return {
        act: send(env, 'POST', '/admin/v1/apps', { name }),
        state: `select count(*) as n from apps where name = ${q(name)}`,
      };
    },
  ],
  [
    'apps',
    'app.rotate-secret',
    async (env) => {
      const { appId } = await createApp(env.t.app, env.operator);
      return {
        act: send(env, 'POST', `/admin/v1/apps/${appId}/rotate-secret`),
        state: appRow(appId, 'secret_hash, secret_version'),
      };
    },
  ],
  [
    'apps',
    'app.rotate-key',
    async (env) => {
      const { appId } = await createApp(env.t.app, env.operator);
      return {
        act: send(env, 'POST', `/admin/v1/apps/${appId}/rotate-key`),
        state: appRow(appId, 'public_key_pem, key_version'),
      };
    },
  ],
  [
    'apps',
    'app.archive',
    async (env) => {
      const { appId } = await createApp(env.t.app, env.operator);
      return { act: send(env, 'POST', `/admin/v1/apps/${appId}/archive`), state: appRow(appId, 'archived_at') };
    },
  ],
  [
    'apps',
    'app.attach',
    async (env) => {
      const { appId } = await createApp(env.t.app, env.operator);
      return {
        act: send(env, 'PUT', `/admin/v1/apps/${appId}/businesses/${env.tenant.urlKey}`),
        state: `select count(*) as n from app_businesses where app_pk = (${appRow(appId, 'id')})`,
      };
    },
  ],
  [
    'apps',
    'app.detach',
    async (env) => {
      const { appId } = await createApp(env.t.app, env.operator);
      const path = `/admin/v1/apps/${appId}/businesses/${env.tenant.urlKey}`;
      expect((await send(env, 'PUT', path)()).status).toBe(200);
      return {
        act: send(env, 'DELETE', path),
        state: `select count(*) as n from app_businesses where app_pk = (${appRow(appId, 'id')})`,
      };
    },
  ],
  [
    'operators',
    'operator.create',
    async (env) => {
      const email = `${randomKey('op')}@example.com`;
      return {
        act: send(env, 'POST', '/admin/v1/operators', { email, password: 'a long enough password' }),
        state: `select count(*) as n from operators where email = ${q(email)}`,
      };
    },
  ],
  [
    'operators',
    'operator.change-password',
    async (env) => {
      const email = `${randomKey('op')}@example.com`;
      const password = 'a long enough password';
      await send(env, 'POST', '/admin/v1/operators', { email, password })();
      const login = await call(env.t.app, 'POST', '/authentication', { body: { strategy: 'local', email, password } });
      expect(login.status).toBe(200);
      const body = { currentPassword: password, newPassword: 'another long password' };
      return {
        act: send(env, 'POST', '/admin/v1/operators/me/password', body, login.body.accessToken),
        state: `select password_hash, session_version from operators where email = ${q(email)}`,
      };
    },
  ],
  [
    'clients',
    'client.create',
    async (env) => {
      const name = randomKey('walk-in');
      return {
        act: send(env, 'POST', `${env.admin}/clients`, { source: 'INVOICE', name }),
        state: `select count(*) as n from clients where data like ${q(`%${name}%`)}`,
      };
    },
  ],
  [
    'clients',
    'client.archive',
    async (env) => {
      const clientId = await newClient(env);
      return { act: send(env, 'POST', `${env.admin}/clients/${clientId}/archive`), state: clientRow(clientId) };
    },
  ],
  [
    'clients',
    'client.delete',
    async (env) => {
      const clientId = await newClient(env);
      return { act: send(env, 'DELETE', `${env.admin}/clients/${clientId}`), state: clientRow(clientId) };
    },
  ],
  [
    'clients',
    'client.restore',
    async (env) => {
      const clientId = await newClient(env, true);
      return { act: send(env, 'POST', `${env.admin}/clients/${clientId}/restore`), state: clientRow(clientId) };
    },
  ],
  [
    'clients',
    'client.document',
    async (env) => {
      const clientId = await newClient(env);
      return {
        act: send(env, 'POST', `${env.admin}/clients/${clientId}/documents`, { type: 'invoice', amount: 1180 }),
        state: `select member, amount_e4 from client_balances where client_pk = (select id from clients where client_id = ${q(clientId)})`,
      };
    },
  ],
  [
    'webhooks',
    'webhook.create',
    async (env) => {
      const url = `https://hooks.example.com/${randomKey('h')}`;
      return {
        act: send(env, 'POST', `${env.admin}/webhooks`, { url, eventTypes: ['client.created'] }),
        state: `select count(*) as n from webhook_endpoints where url = ${q(url)}`,
      };
    },
  ],
  [
    'webhooks',
    'webhook.update',
    async (env) => {
      const id = await newEndpoint(env);
      return {
        act: send(env, 'PATCH', `${env.admin}/webhooks/${id}`, { description: 'Changed' }),
        state: endpointRow(id),
      };
    },
  ],
  [
    'webhooks',
    'webhook.delete',
    async (env) => {
      const id = await newEndpoint(env);
      return { act: send(env, 'DELETE', `${env.admin}/webhooks/${id}`), state: endpointRow(id) };
    },
  ],
  [
    'webhooks',
    'webhook.rotate-secret',
    async (env) => {
      const id = await newEndpoint(env);
      return { act: send(env, 'POST', `${env.admin}/webhooks/${id}/rotate-secret`), state: endpointRow(id) };
    },
  ],
  [
    'webhooks',
    'webhook.test',
    async (env) => {
      const id = await newEndpoint(env);
      return { act: send(env, 'POST', `${env.admin}/webhooks/${id}/test`), state: outboxOf(id) };
    },
  ],
  [
    'webhooks',
    'webhook.resend',
    async (env) => {
      const id = await newEndpoint(env);
      const queued = await send(env, 'POST', `${env.admin}/webhooks/${id}/test`)();
      expect(queued.status).toBe(202);
      // As if delivered once (this suite's servers deliver nothing): a resend makes it pending again.
      const ofEndpoint = `endpoint_pk = (select id from webhook_endpoints where public_id = ${q(id)})`;
      await env.raw.run(`update webhook_outbox set state = 'delivered', attempts = 1 where ${ofEndpoint}`);
      return {
        act: send(env, 'POST', `${env.admin}/webhooks/${id}/events/${queued.body.data.eventId}/resend`),
        state: `select state from webhook_outbox where ${ofEndpoint}`,
      };
    },
  ],
  [
    'invoices',
    'invoice-settings.put',
    async (env) => ({
      act: send(env, 'PUT', `${env.admin}/invoice-settings`, {
        billedBy: { gstState: '27' },
        numbering: {},
        defaultTerms: [{ label: 'Payment', terms: [randomKey('term')] }],
      }),
      state: `select doc, updated_at from invoice_settings where business_pk = (select id from businesses where url_key = ${q(env.tenant.urlKey)})`,
    }),
  ],
  [
    'invoices',
    'invoice.cancel',
    async (env) => {
      const invoice = await createInvoice(env.t, env.tenant);
      return {
        act: send(env, 'POST', `${env.admin}/invoices/${invoice._id}/cancel`),
        state: `select status, updated_at from invoices where invoice_id = ${q(invoice._id)}`,
      };
    },
  ],
  [
    'share links',
    'invoice.share-link.revoke',
    async (env) => {
      const invoice = await createInvoice(env.t, env.tenant);
      return {
        act: send(env, 'POST', `${env.admin}/invoices/${invoice._id}/share-link/revoke`),
        state: `select share_token, updated_at from invoices where invoice_id = ${q(invoice._id)}`,
      };
    },
  ],
  [
    'pipelines',
    'pipelines.replace',
    async (env) => ({
      act: send(env, 'PUT', `${env.admin}/pipelines`, {
        pipelines: [{ name: randomKey('Sales'), stages: [{ name: 'New', state: 'OPEN' }] }],
        stageReasons: [],
      }),
      state: `select config from pipeline_configs where business_pk = (select id from businesses where url_key = ${q(env.tenant.urlKey)})`,
    }),
  ],
];

describeEachStore(
  'operator audit lines are written in the change’s transaction',
  (ctx) => {
    let env: Env;
    beforeAll(async () => {
      const raw = await rawFor(ctx());
      for (const statement of REFUSING_TRIGGER[ctx().storeName]) await raw.run(statement);
      const tenant = await seedInvoiceTenant(ctx());
      env = { t: ctx(), tenant, operator: tenant.operator, admin: tenant.admin, raw };
    });
    afterAll(async () => {
      await env?.raw.close();
    });

    const auditLines = async () => Number(((await env.raw.rows('select count(*) as n from audit_log'))[0] as any).n);
    const lastAction = async () =>
      ((await env.raw.rows('select action from audit_log order by id desc limit 1'))[0] as any).action as string;

    it.each(CASES)('%s: %s refused its audit line changes nothing; allowed, it leaves one line', async (...c) => {
      const [, action, prepare] = c;
      const write = await prepare(env);
      const before = await env.raw.rows(write.state);
      const lines = await auditLines();

      await env.raw.run('insert into audit_refusal (flag) values (1)');
      const refused = await write.act().finally(() => env.raw.run('delete from audit_refusal'));
      expect(refused.status, JSON.stringify(refused.body)).toBe(500);
      expect(refused.body.data.error.code).toBe('SERVICE_ERROR');
      expect(await env.raw.rows(write.state)).toEqual(before);
      expect(await auditLines()).toBe(lines);

      const done = await write.act();
      expect(done.status, JSON.stringify(done.body)).toBeLessThan(300);
      expect(await env.raw.rows(write.state)).not.toEqual(before);
      expect(await auditLines()).toBe(lines + 1);
      expect(await lastAction()).toBe(action);
    });
  },
  {},
  { ownDatabase: true },
);
