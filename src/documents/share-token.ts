import { randomBytes, timingSafeEqual } from 'node:crypto';

/** 43 base64url characters: 32 random bytes (invoices-interface 2.7). */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** 256 bits from the operating system's CSPRNG, as an invoice's first token is made. */
export const newShareToken = (): string => randomBytes(32).toString('base64url');

/** Whether two tokens are the same, in time that does not depend on where they differ. */
export function sameToken(given: string, stored: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}
