import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt's block size and parallelism; the cost N comes from the configuration (PASSWORD_HASH_COST). */
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;

function scryptAsync(secret: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  // scrypt works in 128·N·r bytes; Node refuses more than 32 MiB unless told (a raised PASSWORD_HASH_COST).
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, KEY_LENGTH, { ...options, maxmem: 256 * options.N! * options.r! }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** Hashes a password or app secret for storage at scrypt cost `cost`: `scrypt$N$r$p$salt$hash`. */
export async function hashSecret(secret: string, cost: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(secret, salt, { N: cost, r: BLOCK_SIZE, p: PARALLELISM });
  return ['scrypt', cost, BLOCK_SIZE, PARALLELISM, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Compares in constant time, at the cost the stored hash was made with. A malformed stored hash never
 * matches. With no stored hash (an unknown app id or e-mail), a hash of the same cost is checked all the
 * same, so that an unknown account cannot be told from a wrong secret by the time the answer takes.
 */
export async function verifySecret(secret: string, stored: string | undefined, cost: number): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = (stored ?? dummyHash(cost)).split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(secret, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return stored !== undefined && actual.length === expected.length && timingSafeEqual(actual, expected);
}

function dummyHash(cost: number): string {
  return `scrypt$${cost}$${BLOCK_SIZE}$${PARALLELISM}$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
}

export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** An opaque public identifier: random, so that it reveals no count or order. */
export function opaqueId(prefix: string, bytes = 12): string {
  return `${prefix}${randomBytes(bytes).toString('base64url').replace(/[-_]/g, 'x')}`;
}

/** For in-memory cache keys only: never stored. */
export function fingerprint(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}
