// @module-tag pooled
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { openStore, type Store } from '../../src/storage/store.js';
import { LEAD_PIPELINES } from '../helpers/leads.js';
import { http, spawnServer, type ServerProcess } from '../helpers/process.js';
import { randomKey } from '../helpers/seed.js';
import { POSTGRES_URL, TEST_ADMIN, availableStores, directUrlOf } from '../helpers/stores.js';

const stores = await availableStores();
const TAGS = Array.from({ length: 40 }, (_, i) => `tag-${i}`);

/** 4.1 and 4.2 under real concurrency: two server processes on one PostgreSQL database. */
describe.runIf(stores.includes('postgres'))(
  'leads: concurrent creates and edits across two processes on PostgreSQL',
  () => {
    let servers: ServerProcess[] = [];
    let store: Store;
    let urlKey = '';
    let token = '';
    let leads = '';

    beforeAll(async () => {
      const env = {
        DATABASE_URL: POSTGRES_URL,
        ADMIN_EMAIL: TEST_ADMIN.email,
        ADMIN_PASSWORD: TEST_ADMIN.password,
        AUTH_FAILURE_LIMIT: '1000',
      };
      servers = await Promise.all([spawnServer(env), spawnServer(env)]);
      // Behind the test PgBouncer this store, like the servers, sends unnamed statements (DATABASE_DIRECT_URL set).
      store = openStore({
        ...testConfig(),
        databaseUrl: POSTGRES_URL,
        databaseDirectUrl: directUrlOf(POSTGRES_URL),
        pgPoolSize: 2,
      });
      const [a] = servers;
      const operator = (await http(a!.url, 'POST', '/authentication', { body: { strategy: 'local', ...TEST_ADMIN } }))
        .body.accessToken;
      urlKey = randomKey('lconc');
      const admin = `/admin/v1/businesses/${urlKey}`;
      expect(
        (
          await http(a!.url, 'POST', '/admin/v1/businesses', {
            token: operator,
            body: { name: urlKey, country: 'IN', urlKey },
          })
        ).status,
      ).toBe(201);
      expect((await http(a!.url, 'PUT', `${admin}/pipelines`, { token: operator, body: LEAD_PIPELINES })).status).toBe(
        200,
      );
      expect(
        (
          await http(a!.url, 'PUT', `${admin}/tags`, {
            token: operator,
            body: { tags: TAGS.map((name) => ({ name })) },
          })
        ).status,
      ).toBe(200);
      const app = (
        await http(a!.url, 'POST', '/admin/v1/apps', { token: operator, body: { name: 'lead-concurrency' } })
      ).body.data;
      expect(
        (await http(a!.url, 'PUT', `/admin/v1/apps/${app.appId}/businesses/${urlKey}`, { token: operator })).status,
      ).toBe(200);
      token = (
        await http(a!.url, 'POST', '/authentication', {
          body: { strategy: 'app-secret', appId: app.appId, appSecret: app.appSecret },
        })
      ).body.accessToken;
      leads = `/api/v1/businesses/${urlKey}/leads`;
    }, 90_000);

    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await store?.close();
    });

    const both = <T>(count: number, send: (url: string, i: number) => Promise<T>) =>
      Promise.all(Array.from({ length: count }, (_, i) => send(servers[i % 2]!.url, i)));

    async function rows() {
      const db = store.leads.db;
      const business = db.selectFrom('businesses').select('id').where('url_key', '=', urlKey);
      const count = async (table: 'clients' | 'contacts' | 'leads') =>
        Number(
          (
            await db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .where('business_pk', '=', business)
              .executeTakeFirstOrThrow()
          ).n,
        );
      return { clients: await count('clients'), contacts: await count('contacts'), leads: await count('leads') };
    }

    it('4.1 100 concurrent identical creates store one lead, one new client and one new contact: all 201, one without idempotent', async () => {
      const before = await rows();
      const body = {
        externalId: randomKey('same'),
        customer: { name: 'Race Co' },
        contact: { name: 'Racer', email: 'r@example.com' },
        pipeline: 'Sales',
        stage: 'New',
        tags: ['tag-1'],
      };
      const results = await both(100, (url) => http(url, 'POST', leads, { token, body }));
      expect(results.map((r) => r.status).filter((s) => s !== 201)).toEqual([]);
      expect(results.filter((r) => r.body.data.idempotent !== true)).toHaveLength(1);
      expect(new Set(results.map((r) => r.body.data.leadId)).size).toBe(1);
      expect(new Set(results.map((r) => r.body.data.contact.contactId)).size).toBe(1);
      expect(await rows()).toEqual({
        clients: before.clients + 1,
        contacts: before.contacts + 1,
        leads: before.leads + 1,
      });
    }, 60_000);

    it('4.1 concurrent creates with one externalId and different details: one lead; every other answer is its idempotent copy or 409 naming it', async () => {
      const before = await rows();
      const externalId = randomKey('mixed');
      const results = await both(60, (url, i) =>
        http(url, 'POST', leads, {
          token,
          body: {
            externalId,
            customer: { name: 'Mixed Co' },
            contact: { name: 'Mixer' },
            pipeline: 'Sales',
            stage: 'New',
            subject: `Variant ${i % 3}`,
          },
        }),
      );
      const created = results.filter((r) => r.status === 201 && r.body.data.idempotent !== true);
      expect(created).toHaveLength(1);
      const winner = created[0]!.body.data;
      for (const r of results) {
        if (r.status === 201) expect(r.body.data.subject).toBe(winner.subject);
        else expect(r.body.data.error).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT', existingLeadId: winner.leadId });
      }
      expect(await rows()).toEqual({
        clients: before.clients + 1,
        contacts: before.contacts + 1,
        leads: before.leads + 1,
      });
    }, 60_000);

    it('4.2 40 concurrent PATCHes, each adding its own tag and comment batch (retried once): no update lost, no batch twice', async () => {
      const lead = (
        await http(servers[0]!.url, 'POST', leads, {
          token,
          body: {
            externalId: randomKey('tags'),
            customer: { name: 'T' },
            contact: { name: 'T' },
            pipeline: 'Sales',
            stage: 'New',
          },
        })
      ).body.data;
      const send = (url: string, i: number) =>
        http(url, 'PATCH', `${leads}/${lead.leadId}`, {
          token,
          body: {
            tagsAdd: [TAGS[i % 40]],
            addComments: { body: [`comment ${i % 40}`], clientRequestId: `batch-${i % 40}` },
          },
        });
      const results = await both(80, send);
      expect(results.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
      const final = (await http(servers[1]!.url, 'GET', `${leads}/${lead.leadId}`, { token })).body.data;
      expect(final.tags).toEqual([...TAGS].sort());
      const entries = (await http(servers[0]!.url, 'GET', `${leads}/${lead.leadId}/activities`, { token })).body.data[0]
        .items;
      expect(
        entries
          .filter((e: any) => e.type === 'COMMENT')
          .map((e: any) => e.body)
          .sort(),
      ).toEqual(TAGS.map((_, i) => `comment ${i}`).sort());
    }, 60_000);

    it('4.2 concurrent stage moves and reason edits: each applies to the state the previous left, so reasons always fit the stage', async () => {
      const lead = (
        await http(servers[0]!.url, 'POST', leads, {
          token,
          body: {
            externalId: randomKey('move'),
            customer: { name: 'M' },
            contact: { name: 'M' },
            pipeline: 'Sales',
            stage: 'Qualified',
          },
        })
      ).body.data;
      const results = await both(40, (url, i) =>
        http(url, 'PATCH', `${leads}/${lead.leadId}`, {
          token,
          body: i % 2 === 0 ? { stage: 'Won', stageReasons: ['Price'] } : { stageReasons: ['Has budget'] },
        }),
      );
      for (const r of results) {
        if (r.status === 400) expect(r.body.data.error.code).toBe('INVALID_STAGE_REASON');
        else {
          expect(r.status).toBe(200);
          const { stage, stageReasons } = r.body.data;
          expect([`${stage}:${stageReasons}`]).toContain(stage === 'Won' ? 'Won:Price' : 'Qualified:Has budget');
        }
      }
      const final = (await http(servers[1]!.url, 'GET', `${leads}/${lead.leadId}`, { token })).body.data;
      expect(final).toMatchObject({ stage: 'Won', stageReasons: ['Price'], status: 'CLOSED' });
      const moves = (
        await http(servers[0]!.url, 'GET', `${leads}/${lead.leadId}/activities`, { token })
      ).body.data[0].items.filter((e: any) => e.type === 'STAGE_CHANGE');
      expect(moves.filter((e: any) => e.toStage === 'Won')).toHaveLength(1);
      expect(moves.length).toBeLessThanOrEqual(2);
    }, 60_000);
  },
);
