import { describe, expect, it } from 'vitest';
import { ConfigError, VARIABLES, loadConfig, usesPreparedStatements, type VariableSpec } from '../../src/config.js';

describe('config: defaults, values and refusals', () => {
  it('an empty environment gives the documented defaults', () => {
    const config = loadConfig({});
    for (const [key, spec] of Object.entries(VARIABLES) as [keyof typeof VARIABLES, VariableSpec<unknown>][]) {
      expect(config[key], spec.name).toEqual(spec.default);
    }
    expect(config).toMatchObject({
      port: 3030,
      host: '127.0.0.1',
      databaseUrl: null,
      jwtAudience: 'crmkit-api',
      corsOrigins: [],
      // The interface's lease (invoices-interface 4.2: a key whose request died is forgotten within 60 s).
      idempotencyKeyLeaseMs: 60_000,
    });
  });

  it('values are parsed and trimmed', () => {
    const config = loadConfig({
      PORT: ' 8080 ',
      TRUST_PROXY: 'true',
      GSTIN_ENFORCE_CHECKSUM: '1',
      LOG_LEVEL: 'debug',
      DATABASE_URL: 'postgresql://u@h/db',
      WORKERS: '4',
      CORS_ORIGINS: 'https://a.example,https://b.example:8443',
      METRICS_TOKEN: 'tok',
    });
    expect(config).toMatchObject({
      port: 8080,
      trustProxy: true,
      enforceGstinChecksum: true,
      logLevel: 'debug',
      databaseUrl: 'postgresql://u@h/db',
      workers: 4,
      corsOrigins: ['https://a.example', 'https://b.example:8443'],
      metricsToken: 'tok',
    });
    expect(loadConfig({ DATABASE_URL: '' }).databaseUrl).toBeNull();
  });

  const bad: [string, string][] = [
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['HOST', ''],
    ['DATABASE_URL', 'mysql://x'],
    ['LOG_LEVEL', 'verbose'],
    ['TRUST_PROXY', 'yes'],
    ['GSTIN_ENFORCE_CHECKSUM', 'on'],
    ['WORKERS', '0'],
    ['PG_POOL_SIZE', '1e3'],
    ['BODY_LIMIT_BYTES', '10'],
    ['REQUEST_TIMEOUT_MS', ''],
    ['APP_TOKEN_TTL_SECONDS', '86401'],
    ['CORS_ORIGINS', 'example.com'],
    ['CACHE_TTL_MS', '0x10'],
    // Longer than the interface's 60 s, or so short a live request would lose its key.
    ['IDEMPOTENCY_KEY_LEASE_MS', '60001'],
    ['IDEMPOTENCY_KEY_LEASE_MS', '999'],
  ];
  it.each(bad)('%s=%j stops the start with one line naming the variable', (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message.startsWith(`${name}: `)).toBe(true);
    expect(message).not.toContain('\n');
  });

  it('rules across variables name them', () => {
    expect(() => loadConfig({ ADMIN_EMAIL: 'a@b.example' })).toThrow(/^ADMIN_EMAIL and ADMIN_PASSWORD/);
    expect(() => loadConfig({ WORKERS: '2' })).toThrow(/^WORKERS: .*PostgreSQL/);
    expect(loadConfig({ WORKERS: '2', DATABASE_URL: 'postgres://h/db' }).workers).toBe(2);
  });

  it('DATABASE_DIRECT_URL needs DATABASE_URL; DATABASE_PREPARED=auto sends named statements only with no pooler in between', () => {
    expect(() => loadConfig({ DATABASE_DIRECT_URL: 'postgres://h/db' })).toThrow(/^DATABASE_DIRECT_URL: /);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://h/db', DATABASE_PREPARED: 'yes' })).toThrow(
      /^DATABASE_PREPARED: /,
    );
    const direct = loadConfig({ DATABASE_URL: 'postgres://h:5432/db' });
    const pooled = loadConfig({ DATABASE_URL: 'postgres://h:6432/db', DATABASE_DIRECT_URL: 'postgres://h:5432/db' });
    expect([usesPreparedStatements(direct), usesPreparedStatements(pooled)]).toEqual([true, false]);
    expect(usesPreparedStatements({ ...pooled, databasePrepared: 'true' })).toBe(true);
    expect(usesPreparedStatements({ ...direct, databasePrepared: 'false' })).toBe(false);
  });
});
