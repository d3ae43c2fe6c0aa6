import { connect } from 'node:net';
import type { Answer } from './hostile.js';

export interface RawExchange extends Answer {
  /** Everything the server wrote, as text. */
  raw: string;
  headers: Record<string, string>;
  /** Whether the server closed the connection before `waitMs` ran out. */
  closed: boolean;
  elapsedMs: number;
}

/**
 * Writes bytes exactly as given on a fresh connection (nothing a client library would tidy up), then
 * reads until the server closes or `waitMs` passes, and parses the first answer in it.
 */
export function rawExchange(
  port: number,
  chunks: (string | Buffer)[],
  options: { waitMs?: number; gapMs?: number } = {},
): Promise<RawExchange> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let closed = false;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(parse(Buffer.concat(received).toString('latin1'), closed, Date.now() - started));
    };
    const timer = setTimeout(finish, options.waitMs ?? 5000);
    socket.on('data', (d) => received.push(d));
    socket.on('error', () => undefined); // a reset after the answer is still an answer
    socket.on('close', () => {
      closed = true;
      finish();
    });
    socket.on('connect', async () => {
      try {
        for (const chunk of chunks) {
          if (socket.destroyed) return;
          socket.write(chunk);
          if (options.gapMs) await new Promise((r) => setTimeout(r, options.gapMs));
        }
      } catch (error) {
        reject(error);
      }
    });
  });
}

function parse(raw: string, closed: boolean, elapsedMs: number): RawExchange {
  const end = raw.indexOf('\r\n\r\n');
  const head = end >= 0 ? raw.slice(0, end) : raw;
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let text = end >= 0 ? raw.slice(end + 4) : '';
  const length = Number(headers['content-length']);
  if (Number.isFinite(length)) text = Buffer.from(text, 'latin1').subarray(0, length).toString('utf8');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  return { raw, status, headers, contentType: headers['content-type'] ?? '', text, closed, elapsedMs };
}

/** A minimal well-formed request, for the checks after a hostile run. */
export function plainRequest(method: string, path: string, headers: Record<string, string> = {}, body = ''): string {
  const all = {
    host: '127.0.0.1',
    connection: 'close',
    ...(body && { 'content-length': String(Buffer.byteLength(body)) }),
    ...headers,
  };
  return `${method} ${path} HTTP/1.1\r\n${Object.entries(all)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n')}\r\n\r\n${body}`;
}
