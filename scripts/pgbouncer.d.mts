export interface PgBouncer {
  port: number;
  /** The pgbouncer process (for its CPU time). */
  pid: number;
  poolSize: number;
  /** A URL to `database` through the pooler. */
  url(database: string): string;
  output(): string;
  stop(): Promise<void>;
}

export function startPgBouncer(options: {
  upstream: string;
  poolSize?: number;
  maxClients?: number;
}): Promise<PgBouncer>;
