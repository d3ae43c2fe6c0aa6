/**
 * E-mail address check: the addr-spec of RFC 5321/5322 that mail systems actually deliver to, without
 * quoted local parts, comments or IP-literal domains (legal but never used for invoice recipients, and
 * a frequent source of injection tricks). Internationalised addresses are not accepted: the sending
 * side of invoices cannot be assumed to support SMTPUTF8.
 */

export const EMAIL_MAX_LENGTH = 254;
const LOCAL_MAX_LENGTH = 64;
const LABEL_MAX_LENGTH = 63;

const LOCAL_ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+$/;
const DOMAIN_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
const TOP_LEVEL = /^(?:[A-Za-z]{2,}|xn--[A-Za-z0-9-]+)$/;

export function isValidEmail(value: string): boolean {
  if (value.length > EMAIL_MAX_LENGTH) return false;
  const at = value.lastIndexOf('@');
  if (at <= 0) return false;
  return isValidLocalPart(value.slice(0, at)) && isValidDomain(value.slice(at + 1));
}

function isValidLocalPart(local: string): boolean {
  if (local.length > LOCAL_MAX_LENGTH) return false;
  return local.split('.').every((atom) => LOCAL_ATOM.test(atom));
}

function isValidDomain(domain: string): boolean {
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  const topLevel = labels[labels.length - 1] ?? '';
  const wellFormed = labels.every((label) => label.length <= LABEL_MAX_LENGTH && DOMAIN_LABEL.test(label));
  return wellFormed && TOP_LEVEL.test(topLevel);
}

/** The form e-mail addresses are compared in (4.4 rule 2: e-mail case is formatting, not a difference). */
export function emailComparisonKey(value: string): string {
  return value.toLowerCase();
}
