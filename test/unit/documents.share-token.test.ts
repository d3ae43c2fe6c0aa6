import { describe, expect, it } from 'vitest';
import { newShareToken, sameToken } from '../../src/invoices/invoice.share-token.js';

describe('2.7 share tokens', () => {
  it('are 43 base64url characters of 32 random bytes, never repeated', () => {
    const tokens = Array.from({ length: 1000 }, newShareToken);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    }
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it.each([
    ['the same token', (t: string) => t, true],
    ['one character changed at the end', (t: string) => `${t.slice(0, 42)}${t.endsWith('A') ? 'B' : 'A'}`, false],
    ['one character changed at the start', (t: string) => `${t.startsWith('A') ? 'B' : 'A'}${t.slice(1)}`, false],
    ['a prefix', (t: string) => t.slice(0, 42), false],
    ['a longer string', (t: string) => `${t}A`, false],
    ['the empty string', () => '', false],
    ['as many characters but more bytes', (t: string) => `é${t.slice(1)}`, false],
  ])('compare in constant time: %s → %s', (_name, given, same) => {
    const stored = newShareToken();
    expect(sameToken(given(stored), stored)).toBe(same);
  });
});
