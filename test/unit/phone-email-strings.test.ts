import { describe, expect, it } from 'vitest';
import { isValidEmail } from '../../src/validation/email.js';
import { normalisePhone } from '../../src/validation/phone.js';
import { codePointLength, hasLoneSurrogate, hasNul, isStorableString } from '../../src/validation/strings.js';

describe('2.4 phone normalisation (decisions.md literal rule)', () => {
  it.each([
    ['+91 98765 43210', '+919876543210'],
    ['919876543210', '+919876543210'],
    ['(022) 1234-5678', '+02212345678'],
    ['+1 (415) 555-0100', '+14155550100'],
    ['+971-4-123-4567', '+97141234567'],
    ['1', '+1'],
    [`+${'1'.repeat(29)}`, `+${'1'.repeat(29)}`],
    [`${'1'.repeat(29)}`, `+${'1'.repeat(29)}`],
  ])('%s → %s', (raw, normalised) => {
    expect(normalisePhone(raw)).toEqual({ ok: true, value: normalised });
  });

  it.each([
    ['30 digits: 31 characters with the +', '1'.repeat(30)],
    ['a letter', '+91 98765 4321O'],
    ['a dot', '+91.98765.43210'],
    ['a slash', '022/12345678'],
    ['a second +', '++919876543210'],
    ['a + in the middle', '91+9876543210'],
    ['a tab', '+91\t9876543210'],
    ['square brackets', '[022] 12345678'],
    ['an extension', '+91 9876543210 ext 12'],
    ['no digits', '+'],
    ['only formatting', '( ) -'],
    ['empty', ''],
    ['Devanagari digits', '+९१९८७६५४३२१०'],
  ])('rejects %s', (_name, raw) => {
    expect(normalisePhone(raw).ok).toBe(false);
  });
});

describe('2.4 e-mail', () => {
  it.each([
    'a@b.co',
    'first.last@example.com',
    'First.Last+tag@Example.COM',
    "o'brien@example.ie",
    'x@sub.domain.example.in',
    'user@xn--80ak6aa92e.com',
    `${'a'.repeat(64)}@example.com`,
  ])('%s is valid', (email) => expect(isValidEmail(email)).toBe(true));

  it.each([
    'plain',
    '@example.com',
    'a@',
    'a@b',
    'a@b.c',
    'a..b@example.com',
    '.a@example.com',
    'a.@example.com',
    'a@-example.com',
    'a@example-.com',
    'a@exa_mple.com',
    'a b@example.com',
    'a@b@example.com',
    '"quoted"@example.com',
    'a@[127.0.0.1]',
    'ü@example.com',
    `${'a'.repeat(65)}@example.com`,
    `a@${'b'.repeat(64)}.com`,
    `${'a'.repeat(60)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`,
  ])('%s is invalid', (email) => expect(isValidEmail(email)).toBe(false));
});

describe('decisions.md strings: code points, NUL, lone surrogates', () => {
  it('counts code points, not UTF-16 units', () => {
    expect(codePointLength('😀😀')).toBe(2);
    expect(codePointLength('नमस्ते')).toBe(6);
    expect(codePointLength('')).toBe(0);
  });
  it.each([
    ['NUL', 'a\u0000b', true, false],
    ['lone high surrogate', 'a\uD83Db', false, true],
    ['lone low surrogate', '\uDE00', false, true],
    ['trailing high surrogate', 'abc\uD83D', false, true],
    ['paired surrogates', '😀', false, false],
    ['plain text', 'Acme Pvt Ltd', false, false],
  ])('%s', (_name, value, nul, lone) => {
    expect(hasNul(value)).toBe(nul);
    expect(hasLoneSurrogate(value)).toBe(lone);
    expect(isStorableString(value)).toBe(!nul && !lone);
  });
});
