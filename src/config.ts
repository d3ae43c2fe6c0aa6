import { IDEMPOTENCY_LEASE_MS } from './http/idempotency-key.js';
import { RETRY_STEPS } from './webhooks/retry-schedule.js';

/**
 * The service's configuration: one table of variables, parsed once at start.
 * A bad value stops the start with one line naming the variable.
 */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | null;
  databaseDirectUrl: string | null;
  databasePrepared: 'auto' | 'true' | 'false';
  dataDir: string;
  adminEmail: string | null;
  adminPassword: string | null;
  jwtAudience: string;
  appTokenTtlSeconds: number;
  operatorSessionTtlSeconds: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  bodyLimitBytes: number;
  requestTimeoutMs: number;
  shutdownGraceMs: number;
  authFailureLimit: number;
  authFailureWindowSeconds: number;
  enforceGstinChecksum: boolean;
  workers: number;
  pgPoolSize: number;
  trustProxy: boolean;
  corsOrigins: string[];
  cacheTtlMs: number;
  metricsToken: string | null;
  webhooksDeliver: boolean;
  webhooksAllowPrivate: boolean;
  webhooksRetryBaseMs: number;
  webhooksPollMs: number;
  webhooksConnectTimeoutMs: number;
  webhooksTimeoutMs: number;
  passwordHashCost: number;
  /** Where the service is reached from outside; null: `http://HOST:PORT` (publicUrlOf). */
  publicUrl: string | null;
  idempotencyKeyRetentionHours: number;
  idempotencyKeyLeaseMs: number;
  /** Where invoice mail goes out; null: an invoice's `email` is stored and nothing is sent. */
  smtpUrl: string | null;
  mailFrom: string | null;
  mailRetryBaseMs: number;
  mailPollMs: number;
  smtpTimeoutMs: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

/** A parser that also says, for docs/configuration.md, what it accepts. */
type Parser<T> = ((raw: string) => T | undefined) & { accepts: string };

export interface VariableSpec<T> {
  name: string;
  default: T;
  parse: Parser<T>;
  describe: string;
}

const rule = <T>(accepts: string, parse: (raw: string) => T | undefined): Parser<T> =>
  Object.assign(parse, { accepts });

const integer = (min: number, max: number) =>
  rule(`whole number, ${min} to ${max}`, (raw) => {
    if (!/^\d+$/.test(raw)) return undefined;
    const n = Number(raw);
    return n >= min && n <= max ? n : undefined;
  });
const powerOfTwo = (min: number, max: number) =>
  rule(`power of two, ${min} to ${max}`, (raw) => {
    const n = integer(min, max)(raw);
    return n !== undefined && (n & (n - 1)) === 0 ? n : undefined;
  });
const text = rule('non-empty text', (raw) => (raw.length > 0 ? raw : undefined));
const optionalText = rule('text (empty means unset)', (raw) => (raw.length > 0 ? raw : null));
const bool = rule('`true`, `false`, `1`, `0`', (raw) =>
  raw === 'true' || raw === '1' ? true : raw === 'false' || raw === '0' ? false : undefined,
);
const oneOf = <T extends string>(...values: T[]) =>
  rule(values.map((v) => `\`${v}\``).join(', '), (raw) =>
    (values as string[]).includes(raw) ? (raw as T) : undefined,
  );
const list = (raw: string) =>
  raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
// Browsers send an Origin as scheme://host[:port] in lower case; a path or a typo would never match, so refuse it at start.
const origins = rule('comma-separated `http(s)://host[:port]` origins', (raw) => {
  const items = list(raw).map((o) => o.toLowerCase().replace(/\/$/, ''));
  return items.every((o) => /^https?:\/\/[^/\s?#]+$/.test(o)) ? items : undefined;
});
const httpUrl = rule('`http(s)://host[:port][/path]` URL, no trailing slash needed (empty means unset)', (raw) => {
  if (raw === '') return null;
  return /^https?:\/\/[^/\s?#]+(\/[^\s?#]*)?$/.test(raw) ? raw.replace(/\/+$/, '') : undefined;
});
const smtpUrl = rule("`smtp://…` or `smtps://…` URL, nodemailer's connection URL (empty means unset)", (raw) => {
  if (raw === '') return null;
  return /^smtps?:\/\/[^/\s?#]+\/?(\?\S*)?$/.test(raw) ? raw : undefined;
});
// What a From header holds: an address, or a display name and an address in angle brackets.
const mailbox = rule('`address@domain` or `Name <address@domain>` (empty means unset)', (raw) => {
  if (raw === '') return null;
  return /^([^<>\r\n]+ )?<[^\s<>@]+@[^\s<>@]+>$|^[^\s<>@]+@[^\s<>@]+$/.test(raw) ? raw : undefined;
});
const postgresUrl = rule('`postgres://…` or `postgresql://…` URL (empty means unset)', (raw) =>
  raw === '' ? null : /^postgres(ql)?:\/\//.test(raw) ? raw : undefined,
);

/**
 * scrypt's N for operator passwords and app secrets (with r=8, p=1: 16 MiB of work memory a hash). A stored
 * hash carries its own N, so raising this later leaves every existing hash valid. The environment may raise
 * it, never lower it; only testConfig lowers it (test/unit/password-hash.test.ts keeps one test at this cost).
 */
export const PASSWORD_HASH_COST = 16384;
/** The tests' cost: each seeded tenant hashes and checks secrets three times, and scrypt at full cost dominated the suite. */
const TEST_PASSWORD_HASH_COST = 16;

/** The webhook retry schedule as WEBHOOKS_RETRY_BASE_MS's text states it, from the schedule itself. */
const RETRY_BASE_DEFAULT_MS = 10_000;
const longestStep = Math.max(...RETRY_STEPS);
const allSteps = RETRY_STEPS.reduce((sum, step) => sum + step, 0);
const hours = (steps: number) => Math.round((steps * RETRY_BASE_DEFAULT_MS) / 3_600_000);

/** Every variable, its default and its rule: docs/configuration.md is checked against this table by a test. */
export const VARIABLES = {
  port: { name: 'PORT', default: 3030, parse: integer(0, 65535), describe: 'HTTP port.' },
  host: { name: 'HOST', default: '127.0.0.1', parse: text, describe: 'Listen address.' },
  databaseUrl: {
    name: 'DATABASE_URL',
    default: null,
    parse: postgresUrl,
    describe: '`postgres://…` selects PostgreSQL; unset selects the embedded store.',
  },
  databaseDirectUrl: {
    name: 'DATABASE_DIRECT_URL',
    default: null,
    parse: postgresUrl,
    describe:
      "A direct (session) connection to the same PostgreSQL, for what a transaction-mode pooler cannot carry: the change feed's LISTEN and the migration lock. Set it when DATABASE_URL goes through PgBouncer; unset, DATABASE_URL serves both (docs/scaling.md).",
  },
  databasePrepared: {
    name: 'DATABASE_PREPARED',
    default: 'auto',
    parse: oneOf('auto', 'true', 'false'),
    describe:
      'Send queries as named prepared statements (`true`: parsed and planned once per connection) or unnamed (`false`: what a transaction-mode pooler needs). `auto`: named unless DATABASE_DIRECT_URL is set.',
  },
  dataDir: { name: 'DATA_DIR', default: './data', parse: text, describe: 'Where the embedded store keeps its files.' },
  adminEmail: {
    name: 'ADMIN_EMAIL',
    default: null,
    parse: optionalText,
    describe: 'With ADMIN_PASSWORD: first operator account, created at start when none exists.',
  },
  adminPassword: {
    name: 'ADMIN_PASSWORD',
    default: null,
    parse: optionalText,
    describe: "With ADMIN_EMAIL: that operator's password.",
  },
  jwtAudience: {
    name: 'JWT_AUDIENCE',
    default: 'crmkit-api',
    parse: text,
    describe: 'The fixed `aud` of self-signed app tokens.',
  },
  appTokenTtlSeconds: {
    name: 'APP_TOKEN_TTL_SECONDS',
    default: 3600,
    parse: integer(60, 86400),
    describe: 'Lifetime of app tokens issued by `app-secret`.',
  },
  operatorSessionTtlSeconds: {
    name: 'OPERATOR_SESSION_TTL_SECONDS',
    default: 43200,
    parse: integer(60, 604800),
    describe: 'Lifetime of operator session tokens (12 hours).',
  },
  logLevel: {
    name: 'LOG_LEVEL',
    default: 'info',
    parse: oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'),
    describe: 'pino log level.',
  },
  bodyLimitBytes: {
    name: 'BODY_LIMIT_BYTES',
    default: 1048576,
    parse: integer(1024, 67108864),
    describe: 'Largest accepted request body (413 above).',
  },
  requestTimeoutMs: {
    name: 'REQUEST_TIMEOUT_MS',
    default: 30000,
    parse: integer(1000, 600000),
    describe:
      'Time a client has to send a request: its headers, and then its body; a slower one gets 408 and the connection is closed.',
  },
  shutdownGraceMs: {
    name: 'SHUTDOWN_GRACE_MS',
    default: 35000,
    parse: integer(100, 600000),
    describe:
      "Time a SIGTERM's close (in-flight requests, the workers, the store) may take; past it the process logs `shutdown did not finish in time` with the stages still running, and exits 1. Longer than REQUEST_TIMEOUT_MS, so that a request still arriving can finish; a hard kill (`docker stop -t`, systemd's TimeoutStopSec) should come later still.",
  },
  authFailureLimit: {
    name: 'AUTH_FAILURE_LIMIT',
    default: 10,
    parse: integer(1, 100000),
    describe:
      'Failed `POST /authentication` attempts per app id (or e-mail) and source address per window before 429; ten times this per address alone.',
  },
  authFailureWindowSeconds: {
    name: 'AUTH_FAILURE_WINDOW_SECONDS',
    default: 300,
    parse: integer(1, 86400),
    describe: 'The window of AUTH_FAILURE_LIMIT.',
  },
  enforceGstinChecksum: {
    name: 'GSTIN_ENFORCE_CHECKSUM',
    default: false,
    parse: bool,
    describe: 'Reject GSTINs whose 15th character is not the mod-36 check character.',
  },
  workers: {
    name: 'WORKERS',
    default: 1,
    parse: integer(1, 64),
    describe: 'Server processes on one port; above 1 needs PostgreSQL.',
  },
  pgPoolSize: {
    name: 'PG_POOL_SIZE',
    default: 10,
    parse: integer(1, 200),
    describe: 'PostgreSQL connections per process.',
  },
  trustProxy: {
    name: 'TRUST_PROXY',
    default: false,
    parse: bool,
    describe:
      'Behind one reverse proxy: the client address (which keys the sign-in limits) is the last X-Forwarded-For entry, the one that proxy added.',
  },
  corsOrigins: {
    name: 'CORS_ORIGINS',
    default: [] as string[],
    parse: origins,
    describe: 'Comma-separated origins (`https://app.example.com`) allowed by CORS; empty turns CORS off.',
  },
  cacheTtlMs: {
    name: 'CACHE_TTL_MS',
    default: 500,
    parse: integer(0, 60000),
    describe: 'Safety-net lifetime of cached configuration and app records (changes are also pushed).',
  },
  metricsToken: {
    name: 'METRICS_TOKEN',
    default: null,
    parse: optionalText,
    describe: 'When set, `GET /metrics` needs `Authorization: Bearer <token>`.',
  },
  webhooksDeliver: {
    name: 'WEBHOOKS_DELIVER',
    default: true,
    parse: bool,
    describe: 'Whether this process delivers webhooks from the outbox (every process writes events either way).',
  },
  webhooksAllowPrivate: {
    name: 'WEBHOOKS_ALLOW_PRIVATE',
    default: false,
    parse: bool,
    describe:
      'Allow webhook destinations on loopback, private and link-local addresses (cloud metadata addresses stay refused).',
  },
  webhooksRetryBaseMs: {
    name: 'WEBHOOKS_RETRY_BASE_MS',
    default: RETRY_BASE_DEFAULT_MS,
    parse: integer(0, 3600000),
    describe:
      `First webhook retry delay; later ones grow ×${RETRY_STEPS[1] / RETRY_STEPS[0]} up to ${longestStep.toLocaleString('en-US')} ` +
      `times this (${hours(longestStep)} hours), ${RETRY_STEPS.length} retries in all (about ${hours(allSteps)} hours).`,
  },
  webhooksPollMs: {
    name: 'WEBHOOKS_POLL_MS',
    default: 1000,
    parse: integer(10, 60000),
    describe:
      'How often the webhook worker looks for due deliveries (events written by this process are sent at once).',
  },
  webhooksConnectTimeoutMs: {
    name: 'WEBHOOKS_CONNECT_TIMEOUT_MS',
    default: 5000,
    parse: integer(100, 60000),
    describe: 'Time a webhook destination has to accept the connection.',
  },
  webhooksTimeoutMs: {
    name: 'WEBHOOKS_TIMEOUT_MS',
    default: 15000,
    parse: integer(100, 120000),
    describe: 'Time a webhook destination has to answer, connection included.',
  },
  passwordHashCost: {
    name: 'PASSWORD_HASH_COST',
    default: PASSWORD_HASH_COST,
    parse: powerOfTwo(PASSWORD_HASH_COST, 131072),
    describe:
      'scrypt cost (N) of new password and app-secret hashes; a stored hash keeps the cost it was made with. Never below the default.',
  },
  publicUrl: {
    name: 'PUBLIC_URL',
    default: null,
    parse: httpUrl,
    describe:
      "The address integrators and buyers reach this service at: invoice share links and PDF links are built from it, never from a request's Host. Unset: `http://HOST:PORT`.",
  },
  idempotencyKeyRetentionHours: {
    name: 'IDEMPOTENCY_KEY_RETENTION_HOURS',
    default: 24,
    parse: integer(24, 720),
    describe:
      "How long an `Idempotency-Key` and its answer are kept from the key's first use (at least the interface's 24 hours); older keys are pruned and count as new.",
  },
  idempotencyKeyLeaseMs: {
    name: 'IDEMPOTENCY_KEY_LEASE_MS',
    default: IDEMPOTENCY_LEASE_MS,
    parse: integer(1_000, IDEMPOTENCY_LEASE_MS),
    describe: `How long a request may hold an \`Idempotency-Key\` before a retry may take it over: a request that died unanswered is forgotten after this (the interface: within ${IDEMPOTENCY_LEASE_MS / 1000} s, the most allowed). Lower it only where every request is known to finish sooner; the tests do, to see a lease end without waiting a minute.`,
  },
  smtpUrl: {
    name: 'SMTP_URL',
    default: null,
    parse: smtpUrl,
    describe:
      'The SMTP server invoice mail goes out through (`smtp://user:pass@host:587`, `smtps://…:465`; query options as nodemailer reads them). Set: an invoice created with `email` is mailed once after its commit, with the share link and the PDF (docs/invoice-documents.md "E-mail"). Unset: `email` is stored and nothing is sent, then or later.',
  },
  mailFrom: {
    name: 'MAIL_FROM',
    default: null,
    parse: mailbox,
    describe:
      'The From of invoice mail; required with SMTP_URL. A bare address is shown under the seller\'s name (`"Acme Pvt Ltd" <billing@example.com>`); a `Name <address>` is used as it is.',
  },
  mailRetryBaseMs: {
    name: 'MAIL_RETRY_BASE_MS',
    default: 10000,
    parse: integer(0, 3600000),
    describe:
      'First invoice-mail retry delay after a temporary failure; later ones follow the webhook schedule in units of this (see WEBHOOKS_RETRY_BASE_MS), then the mail is given up. A permanent refusal (an SMTP 5xx) is given up at once.',
  },
  mailPollMs: {
    name: 'MAIL_POLL_MS',
    default: 1000,
    parse: integer(10, 60000),
    describe:
      'How often the mail worker looks for due mail (retries, and mail queued by other processes); mail queued by this process is sent at once.',
  },
  smtpTimeoutMs: {
    name: 'SMTP_TIMEOUT_MS',
    default: 30000,
    parse: integer(100, 300000),
    describe: 'Time the SMTP server has to accept the connection, greet, and answer each command.',
  },
} satisfies { [K in keyof Config]: VariableSpec<Config[K]> };

export function loadConfig(env: Env = process.env): Config {
  const config: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(VARIABLES) as [keyof Config, VariableSpec<unknown>][]) {
    const raw = env[spec.name];
    if (raw === undefined) {
      config[key] = spec.default;
      continue;
    }
    const value = spec.parse(raw.trim());
    if (value === undefined)
      throw new ConfigError(`${spec.name}: invalid value ${JSON.stringify(raw)} (${spec.describe})`);
    config[key] = value;
  }
  const result = config as unknown as Config;
  if ((result.adminEmail === null) !== (result.adminPassword === null)) {
    throw new ConfigError('ADMIN_EMAIL and ADMIN_PASSWORD: set both or neither');
  }
  if (result.workers > 1 && result.databaseUrl === null) {
    throw new ConfigError(
      'WORKERS: more than one worker needs PostgreSQL (set DATABASE_URL); the embedded store serves one process',
    );
  }
  if (result.databaseDirectUrl !== null && result.databaseUrl === null) {
    throw new ConfigError('DATABASE_DIRECT_URL: set only beside DATABASE_URL (the pooled connection the queries use)');
  }
  if (result.smtpUrl !== null && result.mailFrom === null) {
    throw new ConfigError('MAIL_FROM: required with SMTP_URL (the address invoice mail is sent from)');
  }
  return result;
}

/** Whether queries go out as named statements: a pooler in transaction mode cannot carry them between transactions. */
export function usesPreparedStatements(config: Pick<Config, 'databaseDirectUrl' | 'databasePrepared'>): boolean {
  return config.databasePrepared === 'auto' ? config.databaseDirectUrl === null : config.databasePrepared === 'true';
}

/** A config for tests and tools: defaults with overrides, no environment read. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({}), logLevel: 'silent', passwordHashCost: TEST_PASSWORD_HASH_COST, ...overrides };
}

/** The base of links the service hands out (invoice share and PDF links): PUBLIC_URL, else http://HOST:PORT. */
export function publicUrlOf(config: Pick<Config, 'publicUrl' | 'host' | 'port'>): string {
  return config.publicUrl ?? `http://${config.host}:${config.port}`;
}
