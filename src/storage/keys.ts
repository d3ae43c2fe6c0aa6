import { isStorableString } from '../validation/strings.js';

/**
 * Whether a caller's key (a urlKey, clientId, appId or e-mail from a path, a body or a token) can name
 * a row at all. PostgreSQL text cannot hold NUL (the driver fails the whole query) and turns a lone
 * surrogate into U+FFFD, so nothing was ever stored under such a key: lookups answer "not found" for
 * it without asking the database, the same on both stores.
 */
export function canName(...keys: string[]): boolean {
  return keys.every(isStorableString);
}
