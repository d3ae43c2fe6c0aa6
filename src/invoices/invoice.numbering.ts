import { codePointLength, isStorableString } from '../validation/strings.js';

/**
 * Invoice numbers (invoices-interface 3.5, section 8), pure. The store assigns them in the creating
 * transaction: it asks nextInvoiceNumber for a candidate and, while the candidate is taken, asks
 * followingCandidate for the next one.
 */

/** 3.5.1: an invoiceNumber is 1 to this many characters (code points) after trimming. */
export const INVOICE_NUMBER_MAX_LENGTH = 64;

/** An operator's saved numbering (section 8): `prefix` + `nextNumber` zero-padded to `padding` digits. */
export interface InvoiceNumbering {
  prefix: string;
  padding: number;
  nextNumber: number;
}

/** Section 8's limits and defaults of a numbering; the default one gives the first number, INV-0001. */
export const NUMBERING_LIMITS = { prefixMaxLength: 40, minPadding: 1, maxPadding: 12, minNextNumber: 1 } as const;
export const DEFAULT_NUMBERING: InvoiceNumbering = { prefix: 'INV-', padding: 4, nextNumber: 1 };

export function formatNumbering({ prefix, padding, nextNumber }: InvoiceNumbering): string {
  return `${prefix}${String(nextNumber).padStart(padding, '0')}`;
}

// The last run of ASCII digits and what follows it (no digit): `2024/ABC-07/X` → `07`, `/X`.
const LAST_DIGITS = /([0-9]+)([^0-9]*)$/;

/**
 * 3.5.2: the number continued by incrementing its last run of digits, keeping width and zero padding
 * and widening on overflow (INV-9 → INV-10, INV-0099 → INV-0100); without digits, `-1` appended
 * (DRAFT → DRAFT-1). A continuation longer than 64 characters cannot be an invoice number: the series
 * restarts at the default first number (docs/decisions.md "Invoice numbers").
 */
export function followingCandidate(candidate: string): string {
  const match = LAST_DIGITS.exec(candidate);
  const next = match
    ? `${candidate.slice(0, match.index)}${(BigInt(match[1]!) + 1n).toString().padStart(match[1]!.length, '0')}${match[2]}`
    : `${candidate}-1`;
  return codePointLength(next) > INVOICE_NUMBER_MAX_LENGTH ? formatNumbering(DEFAULT_NUMBERING) : next;
}

/**
 * The first candidate for an invoice created without a number. `numbering`: pass the operator's saved
 * numbering only while it is to start the series (saved after the last invoice was created); then its
 * number is the candidate. Else the business's most recently created invoice's number is continued,
 * and the very first invoice is INV-0001.
 */
export function nextInvoiceNumber(previous: string | null, numbering?: InvoiceNumbering): string {
  if (numbering) return formatNumbering(numbering);
  return previous === null ? formatNumbering(DEFAULT_NUMBERING) : followingCandidate(previous);
}

// C0, DEL and C1 controls (Unicode general category Cc).
const CONTROL = /\p{Cc}/u;

export type InvoiceNumberCheck = { ok: true; value: string } | { ok: false; message: string };

/** 3.5.1 as a pure check: the trimmed number, or the message naming `invoiceNumber`. */
export function validateInvoiceNumber(raw: unknown, field = 'invoiceNumber'): InvoiceNumberCheck {
  if (typeof raw !== 'string') return { ok: false, message: `${field} must be a string` };
  const value = raw.trim();
  if (!isStorableString(value) || CONTROL.test(value)) {
    return { ok: false, message: `${field} must not contain control characters or unpaired surrogates` };
  }
  const length = codePointLength(value);
  if (length < 1 || length > INVOICE_NUMBER_MAX_LENGTH) {
    return { ok: false, message: `${field} must be 1 to ${INVOICE_NUMBER_MAX_LENGTH} characters after trimming` };
  }
  return { ok: true, value };
}
