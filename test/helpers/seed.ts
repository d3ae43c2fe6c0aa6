import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { SignJWT, importPKCS8 } from 'jose';
import { call } from './app.js';
import { TEST_ADMIN } from './stores.js';

export const randomKey = (prefix = 't') => `${prefix}-${randomBytes(6).toString('hex')}`;

export async function operatorToken(app: FastifyInstance): Promise<string> {
  const response = await call(app, 'POST', '/authentication', { body: { strategy: 'local', ...TEST_ADMIN } });
  if (response.status !== 200) throw new Error(`operator login failed: ${JSON.stringify(response.body)}`);
  return response.body.accessToken;
}

export interface Tenant {
  operator: string;
  urlKey: string;
  appId: string;
  appSecret: string;
  privateKeyPem: string;
  audience: string;
  /** an issued app token (strategy app-secret) */
  token: string;
}

/** A business of its own, with an app attached and a token: every test seeds one, nothing is truncated. */
export async function seedTenant(
  app: FastifyInstance,
  business: { country?: string; customFieldsEnabled?: boolean; currency?: string } = {},
): Promise<Tenant> {
  const operator = await operatorToken(app);
  const urlKey = randomKey('biz');
  const created = await call(app, 'POST', '/admin/v1/businesses', {
    token: operator,
    body: {
      name: `Business ${urlKey}`,
      country: business.country ?? 'IN',
      urlKey,
      ...(business.currency && { currency: business.currency }),
      ...(business.customFieldsEnabled !== undefined && { customFieldsEnabled: business.customFieldsEnabled }),
    },
  });
  if (created.status !== 201) throw new Error(`business create failed: ${JSON.stringify(created.body)}`);
  const newApp = await createApp(app, operator);
  const attached = await call(app, 'PUT', `/admin/v1/apps/${newApp.appId}/businesses/${urlKey}`, { token: operator });
  if (attached.status !== 200) throw new Error(`attach failed: ${JSON.stringify(attached.body)}`);
  const token = await appSecretToken(app, newApp.appId, newApp.appSecret);
  return { operator, urlKey, ...newApp, token };
}

export async function createApp(app: FastifyInstance, operator: string) {
  const response = await call(app, 'POST', '/admin/v1/apps', { token: operator, body: { name: randomKey('app') } });
  if (response.status !== 201) throw new Error(`app create failed: ${JSON.stringify(response.body)}`);
  return response.body.data as { appId: string; appSecret: string; privateKeyPem: string; audience: string };
}

export async function appSecretToken(app: FastifyInstance, appId: string, appSecret: string): Promise<string> {
  const response = await call(app, 'POST', '/authentication', { body: { strategy: 'app-secret', appId, appSecret } });
  if (response.status !== 200) throw new Error(`app-secret failed: ${JSON.stringify(response.body)}`);
  return response.body.accessToken;
}

/** A self-signed ES256 token, with every claim overridable (undefined removes one). */
export async function selfSignedToken(
  tenant: Pick<Tenant, 'appId' | 'privateKeyPem' | 'audience'>,
  claims: Record<string, unknown> = {},
  options: { alg?: string; header?: Record<string, unknown> } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const payload: Record<string, unknown> = {
    appId: tenant.appId,
    iss: tenant.appId,
    aud: tenant.audience,
    sub: 'AppAuth',
    iat: now,
    exp: now + 3600,
    ...claims,
  };
  for (const key of Object.keys(payload)) if (payload[key] === undefined) delete payload[key];
  const key = await importPKCS8(tenant.privateKeyPem, 'ES256');
  return new SignJWT(payload).setProtectedHeader({ alg: options.alg ?? 'ES256', ...options.header }).sign(key);
}

/** A source address (10.x.y.z) no other test uses: sign-in limit buckets in the shared PostgreSQL database stay apart. */
export const randomAddress = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;
