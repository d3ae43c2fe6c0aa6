// @module-tag pooled
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/storage/store.js';
import { readPdf } from '../helpers/poppler.js';
import { http, spawnServer, type ServerProcess } from '../helpers/process.js';
import { randomKey } from '../helpers/seed.js';
import { SmtpSink } from '../helpers/smtp-sink.js';
import {
  TEST_ADMIN,
  availableStores,
  directUrlOf,
  privatePostgresDatabase,
  type PrivateDatabase,
  type StoreName,
} from '../helpers/stores.js';
import { migratedDataDir } from '../helpers/sqlite-template.js';

const stores = await availableStores();
const ITEMS = [
  { name: 'one', rate: 100, quantity: 2, gstRate: 18 },
  { name: 'two', rate: 200, quantity: 6, gstRate: 12 },
];
const MAIL_ENV = { MAIL_FROM: 'billing@crmkit.test', MAIL_RETRY_BASE_MS: '100', MAIL_POLL_MS: '50' };
/** Time for anything wrongly queued to have been sent after the last expected mail arrived (the poll is 50 ms). */
const SETTLE_MS = 500;

const databases: PrivateDatabase[] = [];
afterAll(() => Promise.all(databases.map((d) => d.drop())));

/**
 * A store of the test's own: every process on a database claims all of its mail, so a server of another
 * suite (or of another test here, with another SMTP server) must not share it.
 */
async function storeEnv(store: StoreName): Promise<Record<string, string>> {
  const env: Record<string, string> = {
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    AUTH_FAILURE_LIMIT: '1000',
  };
  if (store === 'postgres') {
    const database = await privatePostgresDatabase('crmkit_mail');
    databases.push(database);
    env.DATABASE_URL = database.url;
  } else env.DATA_DIR = migratedDataDir();
  return env;
}

/** The test's own view of the server's store, to read what became of a mail (behind PgBouncer: unnamed statements). */
function storeOf(env: Record<string, string>): Store {
  const databaseUrl = env.DATABASE_URL ?? null;
  return openStore({
    databaseUrl,
    databaseDirectUrl: databaseUrl && directUrlOf(databaseUrl),
    dataDir: env.DATA_DIR ?? '',
    pgPoolSize: 2,
  });
}

interface Tenant {
  urlKey: string;
  token: string;
  invoices: string;
}

async function seed(url: string): Promise<Tenant> {
  const operator = (await http(url, 'POST', '/authentication', { body: { strategy: 'local', ...TEST_ADMIN } })).body
    .accessToken;
  const urlKey = randomKey('mail');
  await http(url, 'POST', '/admin/v1/businesses', {
    token: operator,
    body: { name: `Seller ${urlKey}`, country: 'IN', urlKey },
  });
  const settings = { billedBy: { gstState: '29' }, numbering: {}, defaultTerms: [] };
  await http(url, 'PUT', `/admin/v1/businesses/${urlKey}/invoice-settings`, { token: operator, body: settings });
  const app = (await http(url, 'POST', '/admin/v1/apps', { token: operator, body: { name: 'mail' } })).body.data;
  await http(url, 'PUT', `/admin/v1/apps/${app.appId}/businesses/${urlKey}`, { token: operator });
  const token = (
    await http(url, 'POST', '/authentication', {
      body: { strategy: 'app-secret', appId: app.appId, appSecret: app.appSecret },
    })
  ).body.accessToken;
  return { urlKey, token, invoices: `/api/v1/businesses/${urlKey}/invoices` };
}

/** POST an invoice for `to` (and cc); an Idempotency-Key when given. Answers status, body and the replay header. */
async function create(
  url: string,
  tenant: Tenant,
  email: { to: { name?: string; email: string }; cc?: string[] },
  extra: { body?: Record<string, unknown>; idempotencyKey?: string } = {},
) {
  const response = await fetch(`${url}${tenant.invoices}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${tenant.token}`,
      'content-type': 'application/json',
      ...(extra.idempotencyKey && { 'idempotency-key': extra.idempotencyKey }),
    },
    body: JSON.stringify({
      billedTo: { name: 'Asha Traders', country: 'IN', gstState: '29' },
      items: ITEMS,
      email,
      ...extra.body,
    }),
  });
  return {
    status: response.status,
    body: (await response.json()) as any,
    replayed: response.headers.get('idempotent-replayed'),
  };
}

const address = (label: string) => `${label}-${randomKey('m').toLowerCase()}@buyer.test`;

/** Waits until `count` mails were delivered to `to`, then answers them. */
async function arrived(sink: SmtpSink, to: string, count = 1, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (sink.to(to).length < count) {
    if (Date.now() > deadline) throw new Error(`${sink.to(to).length} of ${count} mails to ${to} arrived`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return sink.to(to);
}

const settle = () => new Promise((r) => setTimeout(r, SETTLE_MS));

describe.each(stores)('invoice mail through a real SMTP server (%s, one process)', (store) => {
  const sink = new SmtpSink();
  let server: ServerProcess;
  let view: Store;
  let tenant: Tenant;

  beforeAll(async () => {
    await sink.start();
    const env = await storeEnv(store);
    server = await spawnServer({ ...env, ...MAIL_ENV, SMTP_URL: sink.url });
    view = storeOf(env);
    tenant = await seed(server.url);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await view?.close();
    await sink.stop();
  });

  it('one mail to `to` and cc: seller and number in the subject, the share link, the PDF attached', async () => {
    const to = address('to');
    const cc = [address('cc1'), address('cc2')];
    const created = await create(server.url, tenant, { to: { name: 'Asha Rao', email: to }, cc });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { invoiceNumber, share, _id } = created.body;
    const [mail] = await arrived(sink, to);
    expect([...mail!.envelopeTo].sort()).toEqual([to, ...cc].sort());
    const parsed = mail!.parsed;
    expect(parsed.from?.value).toEqual([{ name: `Seller ${tenant.urlKey}`, address: 'billing@crmkit.test' }]);
    expect(parsed.to && !Array.isArray(parsed.to) && parsed.to.value).toEqual([{ name: 'Asha Rao', address: to }]);
    expect(parsed.cc && !Array.isArray(parsed.cc) && parsed.cc.value.map((v) => v.address)).toEqual(cc);
    expect(parsed.subject).toBe(`Invoice ${invoiceNumber} from Seller ${tenant.urlKey}`);
    expect(parsed.messageId).toBe(`<invoice-${_id}@127.0.0.1>`);
    expect(parsed.text).toContain(share.link);
    expect(parsed.text).toContain('₹1,580.00');
    expect(parsed.html).toContain(`href="${share.link}"`);
    expect(parsed.attachments).toHaveLength(1);
    const [pdf] = parsed.attachments;
    expect(pdf!.contentType).toBe('application/pdf');
    expect(pdf!.filename).toBe(`${invoiceNumber}.pdf`);
    const read = readPdf(`mail-${store}`, pdf!.content);
    expect(read.text).toContain(invoiceNumber);
    expect(read.text).toContain('Asha Traders');
    expect(await view.invoiceMail.status(tenant.urlKey, _id)).toMatchObject({ state: 'sent', attempts: 1 });
  });

  it('an idempotent retry by number, an Idempotency-Key replay and a refused create send nothing more', async () => {
    const to = address('retry');
    const late = address('late');
    const body = { invoiceNumber: `MAIL-${randomKey('n')}` };
    expect((await create(server.url, tenant, { to: { email: to } }, { body })).status).toBe(201);
    // `email` is never compared (4.1): a retry naming other recipients is still the same invoice, and mails no one.
    const retry = await create(server.url, tenant, { to: { email: to }, cc: [late] }, { body });
    expect(retry.status).toBe(201);
    expect(retry.body.idempotent).toBe(true);
    const idempotencyKey = randomKey('key');
    expect((await create(server.url, tenant, { to: { email: to } }, { idempotencyKey })).status).toBe(201);
    const replay = await create(server.url, tenant, { to: { email: to } }, { idempotencyKey });
    expect(replay.status).toBe(201);
    expect(replay.replayed).toBe('true');
    // A create refused with 400 queues nothing.
    const refused = address('refused');
    expect((await create(server.url, tenant, { to: { email: refused } }, { body: { items: [] } })).status).toBe(400);
    const marker = address('marker');
    expect((await create(server.url, tenant, { to: { email: marker } })).status).toBe(201);
    await arrived(sink, to, 2);
    await arrived(sink, marker);
    await settle();
    expect(sink.to(to)).toHaveLength(2);
    expect(sink.to(late)).toHaveLength(0);
    expect(sink.to(refused)).toHaveLength(0);
  });

  it('an SMTP server answering 451 at first: the mail is sent once, by the retry', async () => {
    const first = sink.attempts + 1;
    sink.refuse = (attempt) => (attempt === first ? { code: 451, text: 'Try again later' } : null);
    try {
      const to = address('later');
      const created = await create(server.url, tenant, { to: { email: to } });
      expect(created.status).toBe(201);
      await arrived(sink, to);
      await settle();
      expect(sink.to(to)).toHaveLength(1);
      expect(sink.attempts - first + 1).toBe(2);
      expect(await view.invoiceMail.status(tenant.urlKey, created.body._id)).toMatchObject({
        state: 'sent',
        attempts: 2,
      });
    } finally {
      sink.refuse = () => null;
    }
  });

  it('a permanent refusal (550) is given up at once, the failure recorded', async () => {
    sink.refuse = () => ({ code: 550, text: 'No such user here' });
    try {
      const created = await create(server.url, tenant, { to: { email: address('gone') } });
      expect(created.status).toBe(201);
      const deadline = Date.now() + 10_000;
      let status = await view.invoiceMail.status(tenant.urlKey, created.body._id);
      while (status?.state === 'pending' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 25));
        status = await view.invoiceMail.status(tenant.urlKey, created.body._id);
      }
      expect(status).toMatchObject({ state: 'failed', attempts: 1 });
      expect(status!.lastError).toContain('No such user here');
    } finally {
      sink.refuse = () => null;
    }
  });
});

describe.each(stores)('invoice mail without SMTP_URL (%s)', (store) => {
  it('the e-mail is stored, nothing is sent, and setting SMTP_URL later mails no earlier invoice', async () => {
    const sink = await new SmtpSink().start();
    const env = await storeEnv(store);
    const view = storeOf(env);
    const unset = await spawnServer(env);
    try {
      const tenant = await seed(unset.url);
      const quiet = address('quiet');
      const created = await create(unset.url, tenant, { to: { email: quiet } });
      expect(created.status).toBe(201);
      await unset.stop();
      const set = await spawnServer({ ...env, ...MAIL_ENV, SMTP_URL: sink.url });
      try {
        const marker = address('marker');
        expect((await create(set.url, tenant, { to: { email: marker } })).status).toBe(201);
        await arrived(sink, marker);
        await settle();
        expect(sink.arrived).toHaveLength(1);
        expect(await view.invoiceMail.status(tenant.urlKey, created.body._id)).toBeUndefined();
      } finally {
        await set.stop();
      }
    } finally {
      await unset.stop();
      await view.close();
      await sink.stop();
    }
  }, 60_000);
});

describe.runIf(stores.includes('postgres'))('invoice mail from two processes on one PostgreSQL database', () => {
  it('every invoice is mailed exactly once, retries included', async () => {
    const sink = await new SmtpSink().start();
    // The first attempts fail for a while, so that retries come due while both processes poll.
    sink.refuse = (attempt) => (attempt <= 6 ? { code: 451, text: 'Busy' } : null);
    const env = { ...(await storeEnv('postgres')), ...MAIL_ENV, SMTP_URL: sink.url };
    const servers = await Promise.all([spawnServer(env), spawnServer(env)]);
    try {
      const tenant = await seed(servers[0]!.url);
      const recipients = Array.from({ length: 12 }, (_, i) => address(`pair${i}`));
      const created = await Promise.all(
        recipients.map((to, i) => create(servers[i % 2]!.url, tenant, { to: { email: to } })),
      );
      expect(created.map((c) => c.status)).toEqual(recipients.map(() => 201));
      await sink.waitFor(recipients.length);
      await settle();
      expect(sink.arrived).toHaveLength(recipients.length);
      for (const to of recipients) expect(sink.to(to)).toHaveLength(1);
      expect(new Set(sink.arrived.map((m) => m.parsed.messageId)).size).toBe(recipients.length);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await sink.stop();
    }
  }, 90_000);
});
