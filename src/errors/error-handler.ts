import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, BareMethodNotAllowedError, NotAuthenticatedError } from './app-error.js';
import { bareEnvelope, errorEnvelope } from './envelope.js';

/** Framework failures, by Fastify error code, turned into the project's codes and plain messages. */
const FRAMEWORK_ERRORS: Record<string, [number, string, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json'],
  FST_ERR_CTP_INVALID_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'PAYLOAD_TOO_LARGE', 'Request body is too large'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'INVALID_FIELD', 'Request body must be a JSON object'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'INVALID_FIELD', 'Request body length does not match Content-Length'],
  FST_ERR_BAD_URL: [400, 'INVALID_FIELD', 'The request path is not a valid URL'],
  FST_ERR_ASYNC_CONSTRAINT: [400, 'INVALID_FIELD', 'The request could not be routed'],
};

export function sendError(reply: FastifyReply, error: unknown): FastifyReply {
  if (error instanceof AppError) {
    if (error.status === 429) reply.header('retry-after', String(error.extraData?.retryAfterSeconds ?? 60));
    const extra = error.extraData && 'retryAfterSeconds' in error.extraData ? undefined : error.extraData;
    return reply.code(error.status).send(errorEnvelope(error.status, error.code, error.message, error.fieldErrors, extra));
  }
  if (error instanceof NotAuthenticatedError) return reply.code(401).send(bareEnvelope(401, error.message));
  if (error instanceof BareMethodNotAllowedError) return reply.code(405).send(bareEnvelope(405, error.message));
  const fastifyError = error as Partial<FastifyError>;
  const mapped = fastifyError.code ? FRAMEWORK_ERRORS[fastifyError.code] : undefined;
  if (mapped) return reply.code(mapped[0]).send(errorEnvelope(mapped[0], mapped[1], mapped[2]));
  if (error instanceof SyntaxError || fastifyError.statusCode === 400) {
    return reply.code(400).send(errorEnvelope(400, 'INVALID_FIELD', 'Request body is not valid JSON'));
  }
  reply.log.error({ err: error }, 'unexpected error');
  return reply.code(500).send(errorEnvelope(500, 'SERVICE_ERROR', 'An unexpected error occurred'));
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, _request, reply) => sendError(reply, error));
  app.setNotFoundHandler((_request: FastifyRequest, reply: FastifyReply) =>
    reply.code(404).send(errorEnvelope(404, 'NOT_FOUND', "No such route")),
  );
}
