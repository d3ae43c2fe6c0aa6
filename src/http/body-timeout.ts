import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { writeConnectionError } from '../errors/error-handler.js';

/**
 * REQUEST_TIMEOUT_MS for the body. Node's own request timer cuts a request whose headers never end
 * (408), but once the headers are in it lets the body take as long as the client likes, so a client
 * could hold a connection open by sending a body slowly or not at all. The body now has
 * REQUEST_TIMEOUT_MS from the moment its headers were read: then 408 in the envelope (unless an
 * answer has already started) and the connection is closed.
 */
export function installBodyTimeout(app: FastifyInstance, timeoutMs: number): void {
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    const headers = raw.headers;
    const hasBody =
      headers['transfer-encoding'] !== undefined ||
      (headers['content-length'] !== undefined && headers['content-length'] !== '0');
    if (!hasBody || raw.complete) return done();
    const timer = setTimeout(() => {
      const socket = raw.socket as Partial<Socket> | undefined;
      // inject()'s stand-in for a socket cannot be closed: there is no connection to free.
      if (raw.complete || raw.readableEnded || typeof socket?.destroy !== 'function' || socket.destroyed) return;
      if (reply.raw.headersSent) socket.destroy();
      else writeConnectionError(socket as Socket, 408, 'REQUEST_TIMEOUT', 'The request was not received in time');
    }, timeoutMs);
    timer.unref();
    const clear = () => clearTimeout(timer);
    raw.once('end', clear);
    raw.once('close', clear);
    done();
  });
}
