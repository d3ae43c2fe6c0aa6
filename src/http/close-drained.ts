import type { FastifyInstance } from 'fastify';

/**
 * Closes each keep-alive connection as its last answer ends once the app is closing. Node's
 * `server.close()` (Fastify's close calls it) ends the connections idle at that moment and waits for the
 * others; a connection whose request was in flight stays open after its answer until the client hangs up
 * or the keep-alive timeout (Fastify's 72 s) runs out. A client that keeps its sockets (fetch does) then
 * held a SIGTERM's close for 72 s: what timed out a CI run's afterAll (docs/reliability.md "Shutdown").
 * Requests that arrive while closing get Fastify's 503 with `Connection: close` and need nothing here.
 */
export function installCloseDrained(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  // Node's own 'finish' listener, which frees the connection for the next request, ran before this hook.
  app.addHook('onResponse', (_request, _reply, done) => {
    if (closing) app.server.closeIdleConnections();
    done();
  });
}
