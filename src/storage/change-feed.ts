import { EventEmitter } from 'node:events';
import pg from 'pg';

const CHANNEL = 'crmkit_changes';

/**
 * Tells every process sharing the database that something cached has changed.
 * Local listeners hear a change at once; other processes hear it through PostgreSQL NOTIFY.
 * Caches also expire after a short time, so a lost notification costs at most that long.
 */
export class ChangeFeed {
  private readonly emitter = new EventEmitter();
  private listener: pg.Client | null = null;
  private closed = false;

  constructor(
    private readonly postgresUrl: string | null,
    private readonly notifyRemote: (topic: string) => Promise<void>,
  ) {
    this.emitter.setMaxListeners(100);
  }

  async start(): Promise<void> {
    if (this.postgresUrl) await this.connect();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.postgresUrl! });
    client.on('notification', (message) => {
      if (message.payload) this.emitter.emit('change', message.payload);
    });
    client.on('error', () => this.reconnectSoon(client));
    client.on('end', () => this.reconnectSoon(client));
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    this.listener = client;
  }

  private reconnectSoon(client: pg.Client): void {
    if (this.closed || this.listener !== client) return;
    this.listener = null;
    // Notifications may have been missed while disconnected: everyone drops what they cached.
    this.emitter.emit('change', '*');
    setTimeout(() => void this.connect().catch(() => this.reconnectSoon(client)), 500).unref();
  }

  onChange(handler: (topic: string) => void): void {
    this.emitter.on('change', handler);
  }

  async publish(topic: string): Promise<void> {
    this.emitter.emit('change', topic);
    if (this.postgresUrl) await this.notifyRemote(topic);
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.listener;
    this.listener = null;
    await client?.end().catch(() => undefined);
  }
}

export const CHANGE_CHANNEL = CHANNEL;
