// The one place the suite hashes at production cost: every other test runs at testConfig's lowered cost
// (src/config.ts), so this file is what says that a real start hashes at PASSWORD_HASH_COST.
import { describe, expect, it } from 'vitest';
import { hashSecret, verifySecret } from '../../src/auth/secrets.js';
import { ConfigError, PASSWORD_HASH_COST, loadConfig, testConfig } from '../../src/config.js';

describe('password and app-secret hashes', () => {
  it('a real start hashes at scrypt N=16384, r=8, p=1, and the hash checks at that cost', async () => {
    const { passwordHashCost } = loadConfig({});
    expect(passwordHashCost).toBe(16384);
    const stored = await hashSecret('correct horse battery staple', passwordHashCost);
    expect(stored).toMatch(/^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifySecret('correct horse battery staple', stored, passwordHashCost)).toBe(true);
    expect(await verifySecret('correct horse battery stapler', stored, passwordHashCost)).toBe(false);
  });

  it('the environment can raise the cost but never lower it', () => {
    expect(loadConfig({ PASSWORD_HASH_COST: '32768' }).passwordHashCost).toBe(32768);
    for (const raw of ['8192', '16', '20000', '262144'])
      expect(() => loadConfig({ PASSWORD_HASH_COST: raw }), raw).toThrow(ConfigError);
  });

  it('a hash keeps the cost it was made with: raising the setting leaves stored hashes valid', async () => {
    const stored = await hashSecret('secret', PASSWORD_HASH_COST);
    expect(await verifySecret('secret', stored, PASSWORD_HASH_COST * 2)).toBe(true);
  });

  it('an unknown account is checked against a hash of the configured cost and never matches', async () => {
    expect(await verifySecret('anything', undefined, testConfig().passwordHashCost)).toBe(false);
    expect(await verifySecret('anything', 'not-a-hash', testConfig().passwordHashCost)).toBe(false);
  });

  it('the tests run at a lower cost than production', () => {
    expect(testConfig().passwordHashCost).toBeLessThan(PASSWORD_HASH_COST);
  });
});
