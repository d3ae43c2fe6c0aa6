import { randomFillSync } from 'node:crypto';

/**
 * Random bytes for ids and share tokens, from the operating system's CSPRNG drawn 4 KiB at a time (as
 * Node's randomUUID keeps its own pool): each byte is handed out once. One `randomBytes` call cost
 * 7-14 µs here, whatever its size, and an invoice create made five (its id, each item's, the token):
 * docs/performance.md "POST invoice: where the rest went".
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let next = POOL_BYTES;

/** `bytes` random bytes encoded at once (the pool's memory is reused): `hex` or `base64url` text. */
export function randomText(bytes: number, encoding: 'hex' | 'base64url'): string {
  if (bytes > POOL_BYTES) throw new RangeError(`at most ${POOL_BYTES} random bytes at a time`);
  if (next + bytes > POOL_BYTES) {
    randomFillSync(pool);
    next = 0;
  }
  const text = pool.toString(encoding, next, next + bytes);
  next += bytes;
  return text;
}
