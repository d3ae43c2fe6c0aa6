/**
 * Phone normalisation, the rule of docs/decisions.md "Clients": round
 * brackets, spaces and hyphens are stripped, a leading `+` is added when absent, and any other
 * character that is not a digit makes the number invalid. Nothing else is guessed (no country prefix,
 * no trunk-zero removal), so the stored value is predictable from what was sent.
 */

export const PHONE_MAX_LENGTH = 30;

export type PhoneResult = { ok: true; value: string } | { ok: false; reason: string };

const FORMATTING = /[() -]/g;

export function normalisePhone(raw: string): PhoneResult {
  const stripped = raw.replace(FORMATTING, '');
  const digits = stripped.startsWith('+') ? stripped.slice(1) : stripped;
  if (digits.length === 0) return { ok: false, reason: 'must contain digits' };
  if (!/^[0-9]+$/.test(digits)) {
    return { ok: false, reason: 'may contain only digits, a leading +, spaces, hyphens and round brackets' };
  }
  const value = `+${digits}`;
  if (value.length > PHONE_MAX_LENGTH) {
    return { ok: false, reason: `must be at most ${PHONE_MAX_LENGTH} characters after normalisation` };
  }
  return { ok: true, value };
}
