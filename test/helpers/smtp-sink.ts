import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';

export interface ArrivedMail {
  /** The SMTP envelope: who the server was asked to deliver to (to and cc alike). */
  envelopeTo: string[];
  parsed: ParsedMail;
}

/** What the sink answers a sender at MAIL FROM: null accepts; a code and text refuse (451: try later; 550: never). */
export type Refusal = { code: number; text: string } | null;

/**
 * A real SMTP server on a free port (the `smtp-server` package), reading every message that arrives
 * with `mailparser`. `refuse` decides, per attempt (numbered from 1 over the sink's life), whether
 * MAIL FROM is refused; `attempts` counts every MAIL FROM the sink saw.
 */
export class SmtpSink {
  readonly arrived: ArrivedMail[] = [];
  attempts = 0;
  refuse: (attempt: number, session: SMTPServerSession) => Refusal = () => null;
  private server: SMTPServer | undefined;
  port = 0;

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onMailFrom: (_address, session, callback) => {
        this.attempts += 1;
        const refusal = this.refuse(this.attempts, session);
        if (!refusal) return callback();
        const error = Object.assign(new Error(refusal.text), { responseCode: refusal.code });
        return callback(error);
      },
      onData: (stream, session, callback) => {
        const envelopeTo = session.envelope.rcptTo.map((r) => r.address);
        simpleParser(stream)
          .then((parsed) => {
            this.arrived.push({ envelopeTo, parsed });
            callback();
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    const address = this.server.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    return this;
  }

  /** Waits until `count` messages have arrived in all (polled), or fails naming how many did. */
  async waitFor(count: number, timeoutMs = 20_000): Promise<ArrivedMail[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.arrived.length < count) {
      if (Date.now() > deadline) throw new Error(`${this.arrived.length} of ${count} mails arrived in ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 25));
    }
    return this.arrived;
  }

  /** The messages sent to `address` (as to or cc). */
  to(address: string): ArrivedMail[] {
    return this.arrived.filter((mail) => mail.envelopeTo.includes(address));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}
