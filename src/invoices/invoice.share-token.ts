import { timingSafeEqual } from 'node:crypto';
import { randomText } from './invoice.random.js';

/** 43 base64url characters: 32 random bytes (invoices-interface 2.7). */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** 256 bits from the operating system's CSPRNG: an invoice's first token, and each after a revocation. */
export const newShareToken = (): string => randomText(32, 'base64url');

/** Whether two tokens are the same, in time that does not depend on where they differ. */
export function sameToken(given: string, stored: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Where the public share page lives (the root path, no auth): `<PUBLIC_URL>/share/invoices/<token>`. */
export const SHARE_PAGE_BASE = '/share/invoices';

/** An invoice's `share.link` (2.7): from PUBLIC_URL, never from a request's Host. */
export const shareLinkOf = (publicUrl: string, token: string): string => `${publicUrl}${SHARE_PAGE_BASE}/${token}`;
