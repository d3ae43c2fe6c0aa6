import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, BareMethodNotAllowedError, NotAuthenticatedError } from './app-error.js';
import type { ErrorCode } from './codes.js';
import { bareEnvelope, errorEnvelope } from './envelope.js';

/** Framework failures, by Fastify error code, turned into the project's codes and plain messages. */
const FRAMEWORK_ERRORS: Record<string, [number, string, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json'],
  FST_ERR_CTP_INVALID_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'PAYLOAD_TOO_LARGE', 'Request body is too large'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'INVALID_FIELD', 'Request body must be a JSON object'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'INVALID_FIELD', 'Request body length does not match Content-Length'],
  FST_ERR_BAD_URL: [400, 'INVALID_FIELD', 'The request path is not a valid URL'],
  // A path segment longer than any key the service hands out names nothing: like an unknown route.
  FST_ERR_MAX_PARAM_LENGTH: [404, 'NOT_FOUND', 'No such route'],
  FST_ERR_ASYNC_CONSTRAINT: [400, 'INVALID_FIELD', 'The request could not be routed'],
};

export function sendError(reply: FastifyReply, error: unknown): FastifyReply {
  if (error instanceof AppError) {
    // Retry-After: a 429 always, and any answer that says when to try again (IDEMPOTENCY_IN_PROGRESS).
    const retryAfter = error.extraData?.retryAfterSeconds;
    if (error.status === 429 || retryAfter !== undefined) reply.header('retry-after', String(retryAfter ?? 60));
    const extra = error.extraData && 'retryAfterSeconds' in error.extraData ? undefined : error.extraData;
    return reply
      .code(error.status)
      .send(errorEnvelope(error.status, error.code, error.message, error.fieldErrors, extra));
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
    reply.code(404).send(errorEnvelope(404, 'NOT_FOUND', 'No such route')),
  );
}

/** Failures of the HTTP parser or of the request timer, by Node's error code; anything else is a malformed request. */
const CONNECTION_ERRORS: Record<string, [number, ErrorCode, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'REQUEST_TIMEOUT', 'The request was not received in time'],
  HPE_HEADER_OVERFLOW: [431, 'HEADERS_TOO_LARGE', 'Request headers are too large'],
};

/**
 * Node answers these before any route runs (a request that is not valid HTTP, headers over the size
 * limit, headers not received within REQUEST_TIMEOUT_MS). Fastify's default writes a body of its own
 * shape; this writes the section 7 envelope, then closes the connection as Node does.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] = CONNECTION_ERRORS[error.code ?? ''] ?? [
    400,
    'INVALID_FIELD',
    'The request is not valid HTTP',
  ];
  writeConnectionError(socket, status, code, message);
}

/** Writes an error answer straight onto the connection (no route is answering), then closes it. */
export function writeConnectionError(socket: Socket, status: number, code: ErrorCode, message: string): void {
  if (socket.writable) {
    const body = JSON.stringify(errorEnvelope(status, code, message));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
