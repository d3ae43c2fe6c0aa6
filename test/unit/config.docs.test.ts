import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VARIABLES, type VariableSpec } from '../../src/config.js';
import { TABLE_END, TABLE_START, configurationBlock } from '../../src/ops/config-docs.js';

const doc = readFileSync('docs/configuration.md', 'utf8');

describe('docs/configuration.md matches the configuration schema', () => {
  it('the generated table in the document is current (regenerate: npx tsx src/cli.ts config-table)', () => {
    const start = doc.indexOf(TABLE_START);
    const end = doc.indexOf(TABLE_END);
    expect(start, 'table start marker').toBeGreaterThanOrEqual(0);
    expect(end, 'table end marker').toBeGreaterThan(start);
    expect(doc.slice(start, end + TABLE_END.length)).toBe(configurationBlock());
  });

  it('every variable of the schema has exactly one row, and no row names an unknown variable', () => {
    const rows = [...doc.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]);
    const names = (Object.values(VARIABLES) as VariableSpec<unknown>[]).map((v) => v.name);
    expect(rows.sort()).toEqual([...names].sort());
  });

  it('the variables the operator interface and issue 10 name are all in the schema', () => {
    const names = new Set((Object.values(VARIABLES) as VariableSpec<unknown>[]).map((v) => v.name));
    for (const name of [
      'PORT',
      'HOST',
      'DATABASE_URL',
      'DATA_DIR',
      'ADMIN_EMAIL',
      'ADMIN_PASSWORD',
      'JWT_AUDIENCE',
      'LOG_LEVEL',
      'BODY_LIMIT_BYTES',
      'REQUEST_TIMEOUT_MS',
      'GSTIN_ENFORCE_CHECKSUM',
      'WORKERS',
      'PG_POOL_SIZE',
      'TRUST_PROXY',
      'CORS_ORIGINS',
      'METRICS_TOKEN',
    ]) {
      expect(names.has(name), name).toBe(true);
    }
  });
});
