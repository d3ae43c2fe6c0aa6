import { createServer, type IncomingMessage, type Server } from 'node:http';

/**
 * A tiny HTTP proxy in front of a real server, for client tests: it records every request and, per
 * request, passes it on or injects a fault the way a network or an overloaded server would.
 */
export type Fault =
  | 'pass'
  /** 503 without reaching the server. */
  | 'unavailable'
  /** The connection is reset before anything reaches the server. */
  | 'reset'
  /** The request reaches the server, then the connection is reset before the answer gets back. */
  | 'lose-answer';

export interface SeenRequest {
  method: string;
  path: string;
}

export interface Proxy {
  url: string;
  seen: SeenRequest[];
  count(method: string, pathPart: string): number;
  close(): Promise<void>;
}

async function readAll(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export interface ProxyOptions {
  /** Listen on this port (a server that comes up where a client already tries). Default any free port. */
  port?: number;
  /** Headers added to every request passed on, like X-Forwarded-For. */
  addHeaders?: Record<string, string>;
}

export async function startProxy(
  target: string,
  plan: (request: SeenRequest, index: number) => Fault = () => 'pass',
  options: ProxyOptions = {},
): Promise<Proxy> {
  const { port = 0, addHeaders = {} } = options;
  const seen: SeenRequest[] = [];
  const server: Server = createServer(async (request, response) => {
    const entry = { method: request.method ?? 'GET', path: request.url ?? '/' };
    seen.push(entry);
    const fault = plan(entry, seen.length - 1);
    if (fault === 'reset') return void request.socket.destroy();
    if (fault === 'unavailable')
      return void response.writeHead(503, { 'content-type': 'application/json' }).end('{"status":"unavailable"}');
    const body = await readAll(request);
    const passed = Object.entries(request.headers).filter(
      ([k]) => k !== 'host' && k !== 'connection' && k !== 'content-length',
    );
    const headers = { ...(Object.fromEntries(passed) as Record<string, string>), ...addHeaders };
    const answer = await fetch(`${target}${entry.path}`, {
      method: entry.method,
      headers,
      ...(body.length > 0 && { body: body.toString('utf8') }),
    });
    const text = await answer.text();
    if (fault === 'lose-answer') return void request.socket.destroy();
    response
      .writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' })
      .end(text);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;
  return {
    url,
    seen,
    count: (method, pathPart) => seen.filter((r) => r.method === method && r.path.includes(pathPart)).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
