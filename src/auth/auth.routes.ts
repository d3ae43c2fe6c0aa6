import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { bearerToken } from './bearer.js';
import { parseAuthenticationBody, type AuthService } from './auth.service.js';

/** POST /authentication: operator login, app-secret token, and validation of either app token kind. */
export async function registerAuthRoutes(app: FastifyInstance, auth: AuthService): Promise<void> {
  // Published examples of this interface spell the type `application-json`, which is not a valid
  // media type to the parser: read it as application/json here, on this route only.
  app.addHook('onRequest', async (request) => {
    const type = request.headers['content-type'];
    if (typeof type === 'string' && /^application-json\s*(;|$)/i.test(type)) request.headers['content-type'] = 'application/json';
  });

  app.post('/authentication', async (request, reply) => {
    if (!request.headers['content-type']) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
    const body = parseAuthenticationBody(request.body);
    const address = request.ip;
    reply.header('cache-control', 'no-store');
    switch (body.strategy) {
      case 'local':
        return auth.login(body.email, body.password, address);
      case 'app-secret':
        return auth.tokenFromSecret(body.appId, body.appSecret, address);
      default:
        return auth.validate(body.strategy, bearerToken(request));
    }
  });
}
