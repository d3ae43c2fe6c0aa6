import { expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { seedTenant } from '../helpers/seed.js';

const GOOD = { url: 'https://hooks.example.com/crmkit', eventTypes: ['client.created'] };

/** [what, body, code, field]: every refusal is a 400 naming the member, never a 500. */
const BAD_BODIES: [string, unknown, string, string | undefined][] = [
  ['url is required', { eventTypes: ['client.created'] }, 'INVALID_FIELD_VALUE', 'url'],
  ['eventTypes is required', { url: GOOD.url }, 'INVALID_FIELD_VALUE', 'eventTypes'],
  ['url must be http or https', { ...GOOD, url: 'ftp://hooks.example.com/x' }, 'INVALID_FIELD_VALUE', 'url'],
  ['url must be absolute', { ...GOOD, url: '/relative' }, 'INVALID_FIELD_VALUE', 'url'],
  ['url carries no credentials', { ...GOOD, url: 'https://user:pw@hooks.example.com/' }, 'INVALID_FIELD_VALUE', 'url'],
  ['url of wrong type', { ...GOOD, url: 42 }, 'INVALID_FIELD', 'url'],
  ['loopback literal refused', { ...GOOD, url: 'http://127.0.0.1:8080/hook' }, 'INVALID_FIELD_VALUE', 'url'],
  ['loopback in another spelling refused', { ...GOOD, url: 'http://2130706433/hook' }, 'INVALID_FIELD_VALUE', 'url'],
  ['IPv6 loopback refused', { ...GOOD, url: 'http://[::1]/hook' }, 'INVALID_FIELD_VALUE', 'url'],
  ['IPv4-mapped loopback refused', { ...GOOD, url: 'http://[::ffff:127.0.0.1]/hook' }, 'INVALID_FIELD_VALUE', 'url'],
  ['localhost refused', { ...GOOD, url: 'http://localhost:3000/hook' }, 'INVALID_FIELD_VALUE', 'url'],
  // Issue 34: the root's trailing dot names the same host; what the parser would rewrite is refused as sent.
  [
    'localhost. (trailing dot) refused like localhost',
    { ...GOOD, url: 'http://localhost.:3000/hook' },
    'INVALID_FIELD_VALUE',
    'url',
  ],
  ['a sub.localhost. refused', { ...GOOD, url: 'http://api.localhost./hook' }, 'INVALID_FIELD_VALUE', 'url'],
  [
    'CR/LF in the url refused',
    { ...GOOD, url: 'https://hooks.example.com/\r\nX-Injected: 1' },
    'INVALID_FIELD_VALUE',
    'url',
  ],
  [
    'a backslash in the url refused',
    { ...GOOD, url: 'https://hooks.example.com\\@evil.example/' },
    'INVALID_FIELD_VALUE',
    'url',
  ],
  ['a space in the url refused', { ...GOOD, url: 'https://hooks.example.com/a b' }, 'INVALID_FIELD_VALUE', 'url'],
  ['a tab in the url refused', { ...GOOD, url: 'https://hooks.example.com/\tx' }, 'INVALID_FIELD_VALUE', 'url'],
  ['private range refused', { ...GOOD, url: 'http://10.1.2.3/hook' }, 'INVALID_FIELD_VALUE', 'url'],
  ['private range refused (192.168)', { ...GOOD, url: 'https://192.168.0.10/hook' }, 'INVALID_FIELD_VALUE', 'url'],
  [
    'metadata address refused',
    { ...GOOD, url: 'http://169.254.169.254/latest/meta-data/' },
    'INVALID_FIELD_VALUE',
    'url',
  ],
  ['no event type', { ...GOOD, eventTypes: [] }, 'INVALID_FIELD_VALUE', 'eventTypes'],
  ['unknown event type', { ...GOOD, eventTypes: ['client.exploded'] }, 'INVALID_FIELD_VALUE', 'eventTypes[0]'],
  [
    'event type listed twice',
    { ...GOOD, eventTypes: ['client.created', 'client.created'] },
    'INVALID_FIELD_VALUE',
    'eventTypes[1]',
  ],
  ['eventTypes of wrong type', { ...GOOD, eventTypes: 'client.created' }, 'INVALID_FIELD', 'eventTypes'],
  ['a secret cannot be chosen', { ...GOOD, secret: 'whsec_abc' }, 'INVALID_FIELD', 'secret'],
  ['description too long', { ...GOOD, description: 'x'.repeat(501) }, 'INVALID_FIELD_VALUE', 'description'],
  ['enabled must be a boolean', { ...GOOD, enabled: 'yes' }, 'INVALID_FIELD', 'enabled'],
  ['a body that is not an object', [GOOD], 'INVALID_FIELD', undefined],
];

describeEachStore('webhooks: operator API', (ctx) => {
  it.each(BAD_BODIES)('POST refuses: %s', async (_what, body, code, field) => {
    const t = await seedTenant(ctx().app);
    const r = await call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/webhooks`, { token: t.operator, body });
    expect(r.status).toBe(400);
    expect(r.body.data.error.code).toBe(code);
    if (field) expect(r.body.data.error.errors[0].field).toBe(field);
    expect(
      (await call(ctx().app, 'GET', `/admin/v1/businesses/${t.urlKey}/webhooks`, { token: t.operator })).body.data,
    ).toEqual([]);
  });

  it('create, list, get, patch, delete; the secret is shown once; unknown ids and other businesses are 404', async () => {
    const t = await seedTenant(ctx().app);
    const other = await seedTenant(ctx().app);
    const base = `/admin/v1/businesses/${t.urlKey}/webhooks`;
    const created = await call(ctx().app, 'POST', base, { token: t.operator, body: { ...GOOD, description: 'ERP' } });
    expect(created.status).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const { secret, ...shown } = created.body.data;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    expect(shown).toMatchObject({
      url: GOOD.url,
      eventTypes: GOOD.eventTypes,
      enabled: true,
      disabledReason: null,
      description: 'ERP',
      previousSecretExpiresAt: null,
    });
    const id = shown.id as string;
    expect((await call(ctx().app, 'GET', base, { token: t.operator })).body.data).toEqual([shown]);
    expect((await call(ctx().app, 'GET', `${base}/${id}`, { token: t.operator })).body.data).toEqual(shown);

    const patched = await call(ctx().app, 'PATCH', `${base}/${id}`, {
      token: t.operator,
      body: { description: '', eventTypes: ['client.archived', 'lead.stage_changed'] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      description: null,
      eventTypes: ['client.archived', 'lead.stage_changed'],
    });
    const badPatch = await call(ctx().app, 'PATCH', `${base}/${id}`, {
      token: t.operator,
      body: { url: 'http://10.0.0.1/' },
    });
    expect([badPatch.status, badPatch.body.data.error.code]).toEqual([400, 'INVALID_FIELD_VALUE']);

    const elsewhere = `/admin/v1/businesses/${other.urlKey}/webhooks/${id}`;
    for (const [method, url] of [
      ['GET', elsewhere],
      ['PATCH', elsewhere],
      ['DELETE', elsewhere],
      ['POST', `${elsewhere}/rotate-secret`],
      ['POST', `${elsewhere}/test`],
      ['GET', `${elsewhere}/deliveries`],
    ] as const) {
      const r = await call(ctx().app, method, url, {
        token: t.operator,
        ...(method === 'PATCH' && { body: { enabled: false } }),
      });
      expect([r.status, r.body.data.error.code], `${method} ${url}`).toEqual([404, 'WEBHOOK_NOT_FOUND']);
    }
    const nobody = await call(ctx().app, 'GET', '/admin/v1/businesses/no-such-business/webhooks', {
      token: t.operator,
    });
    expect([nobody.status, nobody.body.data.error.code]).toEqual([404, 'BUSINESS_NOT_FOUND']);
    expect(
      (await call(ctx().app, 'GET', `${base}/${id}/deliveries?limit=3`, { token: t.operator })).body.data.error.code,
    ).toBe('INVALID_QUERY_FIELD');
    expect(
      (await call(ctx().app, 'GET', `${base}/${id}/deliveries?page=0`, { token: t.operator })).body.data.error.code,
    ).toBe('INVALID_QUERY_VALUE');
    expect(
      (await call(ctx().app, 'POST', `${base}/${id}/rotate-secret`, { token: t.operator, body: { overlap: 1 } })).body
        .data.error.code,
    ).toBe('INVALID_FIELD');
    expect((await call(ctx().app, 'GET', base, { token: t.token })).status).toBe(401);

    const removed = await call(ctx().app, 'DELETE', `${base}/${id}`, { token: t.operator });
    expect(removed.body.data).toEqual({ id, deleted: true });
    expect((await call(ctx().app, 'GET', `${base}/${id}`, { token: t.operator })).status).toBe(404);
  });

  it('the event types come from one table, lead and invoice types included', async () => {
    const t = await seedTenant(ctx().app);
    const r = await call(ctx().app, 'GET', '/admin/v1/webhook-event-types', { token: t.operator });
    expect(r.body.data.map((e: { type: string }) => e.type)).toEqual([
      'client.created',
      'client.archived',
      'client.deleted',
      'lead.created',
      'lead.updated',
      'lead.stage_changed',
      'invoice.created',
      'invoice.payment_recorded',
      'invoice.paid',
      'invoice.canceled',
      'invoice.payment_removed',
      'webhook.test',
    ]);
    const doc = await call(ctx().app, 'GET', '/openapi.json');
    expect(doc.body.components.schemas.WebhookEndpointInput.properties.eventTypes.items.enum).toContain(
      'lead.stage_changed',
    );
  });

  it('issue 34: the url is stored and shown as deliveries call it: host lower case and punycode, path encoded', async () => {
    const t = await seedTenant(ctx().app);
    const base = `/admin/v1/businesses/${t.urlKey}/webhooks`;
    const made = await call(ctx().app, 'POST', base, {
      token: t.operator,
      body: { ...GOOD, url: 'https://Bücher.EXAMPLE/hooks/é?x=1' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.data.url).toBe('https://xn--bcher-kva.example/hooks/%C3%A9?x=1');
    const id = made.body.data.id as string;
    const shown = (await call(ctx().app, 'GET', base, { token: t.operator })).body.data;
    expect(shown.map((e: { url: string }) => e.url)).toEqual(['https://xn--bcher-kva.example/hooks/%C3%A9?x=1']);
    const patched = await call(ctx().app, 'PATCH', `${base}/${id}`, {
      token: t.operator,
      body: { url: 'HTTPS://Hooks.Example.com:443/a' },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data.url).toBe('https://hooks.example.com/a');
  });
});
