import { createServer, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  type: string;
  data: any;
  /** Which of the receiver's secrets verified this delivery (standardwebhooks' own verify). */
  verifiedWith: string[];
}

/**
 * A real HTTP receiver for webhook tests: every delivery is checked with the `standardwebhooks`
 * package against the secrets it knows; a delivery no secret verifies fails the test that reads it.
 * `answer` sets the status it replies (500 to play an endpoint that is down).
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  readonly unverified: string[] = [];
  secrets: string[] = [];
  answer = 204;
  /** Hold every request without answering (a destination that hangs). */
  hang = false;
  private server: Server | undefined;
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  async start(port = 0): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        if (this.hang) return;
        const body = Buffer.concat(chunks).toString('utf8');
        const headers = {
          'webhook-id': String(request.headers['webhook-id']),
          'webhook-timestamp': String(request.headers['webhook-timestamp']),
          'webhook-signature': String(request.headers['webhook-signature']),
        };
        const verifiedWith = this.secrets.filter((secret) => {
          try {
            new Webhook(secret).verify(body, headers);
            return true;
          } catch {
            return false;
          }
        });
        if (this.answer >= 200 && this.answer < 300) {
          if (verifiedWith.length === 0) this.unverified.push(body);
          const parsed = JSON.parse(body) as { type: string; data: unknown };
          this.received.push({
            id: headers['webhook-id'],
            timestamp: headers['webhook-timestamp'],
            signature: headers['webhook-signature'],
            body,
            type: parsed.type,
            data: parsed.data,
            verifiedWith,
          });
        }
        response.writeHead(this.answer).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : port;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Waits until `predicate` holds over what was received (polling), or fails after `timeoutMs`. */
  async until(predicate: (received: Received[]) => boolean, timeoutMs = 15_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.received)) {
      if (Date.now() > deadline)
        throw new Error(
          `receiver: condition not met in ${timeoutMs} ms; got ${this.received.length}: ${this.received.map((r) => r.type).join(', ')}`,
        );
      await new Promise((r) => setTimeout(r, 25));
    }
    return this.received;
  }
}
