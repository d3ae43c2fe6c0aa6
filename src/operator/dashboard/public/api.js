// @ts-check
// The operator API client: one fetch wrapper, the session kept in sessionStorage,
// errors read from the section 7 envelope, and a 401 sending the operator back to log in.

import { clockTime } from './locale-format.js';

/** @typedef {import('../../../../client/src/api-types.js').FieldError} FieldError */
/** @typedef {{ token: string, email: string, expiresAt: string }} Session */

const SESSION_KEY = 'crmkit.session';
const BUSINESS_KEY = 'crmkit.business';

export class ApiError extends Error {
  /**
   * @param {number} status the HTTP status (0: the server could not be reached)
   * @param {string} message
   * @param {string} [code] the error code of the envelope
   * @param {FieldError[]} [fieldErrors]
   */
  constructor(status, message, code, fieldErrors) {
    super(message);
    this.status = status;
    this.code = code;
    this.fieldErrors = fieldErrors ?? [];
  }
}

/** @type {(email: string | undefined) => void} */
let onSessionExpired = () => {};
/**
 * Called once by the app shell: what to do when the server says the session is no longer valid.
 * @param {(email: string | undefined) => void} handler
 */
export function setSessionExpiredHandler(handler) {
  onSessionExpired = handler;
}

/** @returns {Session | null} */
export function getSession() {
  try {
    return JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? 'null');
  } catch {
    return null;
  }
}

/**
 * After a password change: the server ended the old session and handed this tab a new one.
 * @param {string} token
 * @param {string} expiresAt
 */
export function replaceSessionToken(token, expiresAt) {
  const session = getSession();
  if (session) sessionStorage.setItem(SESSION_KEY, JSON.stringify({ ...session, token, expiresAt }));
}

export function clearSession() {
  sessionStorage.removeItem(SESSION_KEY);
  sessionStorage.removeItem(BUSINESS_KEY);
}

export function getCurrentBusiness() {
  return sessionStorage.getItem(BUSINESS_KEY);
}

/** @param {string | null | undefined} urlKey */
export function setCurrentBusiness(urlKey) {
  if (urlKey) sessionStorage.setItem(BUSINESS_KEY, urlKey);
  else sessionStorage.removeItem(BUSINESS_KEY);
}

/**
 * @param {Response} response
 * @returns {Promise<any>} the parsed body, or null when it is not JSON
 */
async function readJson(response) {
  try {
    return await response.json();
  } catch {
    return null;
  }
}

/**
 * @param {number} status
 * @param {any} json the answer's body, as sent
 */
function errorFrom(status, json) {
  const error = json?.data?.error;
  const message = error?.message ?? json?.data?.message ?? json?.message ?? `The request failed (HTTP ${status}).`;
  return new ApiError(status, message, error?.code, Array.isArray(error?.errors) ? error.errors : []);
}

/**
 * The sign-in lockout in words: how long, and until when (Retry-After is in seconds).
 * @param {number} seconds
 */
export function lockoutMessage(seconds) {
  if (!Number.isFinite(seconds) || seconds <= 0) return 'Too many failed attempts. Wait a few minutes, then try again.';
  const minutes = Math.ceil(seconds / 60);
  const until = clockTime(new Date(Date.now() + seconds * 1000));
  const span = seconds < 60 ? `${Math.ceil(seconds)} seconds` : minutes === 1 ? '1 minute' : `${minutes} minutes`;
  return `Too many failed attempts. Try again in ${span} (at ${until}).`;
}

/**
 * Logs in with the local strategy and keeps the session token for this browser tab.
 * @param {string} email
 * @param {string} password
 * @returns {Promise<Session>}
 */
export async function login(email, password) {
  let response;
  try {
    response = await fetch('/authentication', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ strategy: 'local', email, password }),
    });
  } catch {
    throw new ApiError(0, 'The server could not be reached. Check your connection and try again.');
  }
  const json = await readJson(response);
  if (response.status === 401) throw new ApiError(401, 'Wrong e-mail or password.');
  if (response.status === 429) throw new ApiError(429, lockoutMessage(Number(response.headers.get('retry-after'))));
  if (!response.ok) throw errorFrom(response.status, json);
  const session = { token: json.accessToken, email: json.user?.email ?? email, expiresAt: json.expiresAt };
  sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
  return session;
}

/**
 * Calls /admin/v1<path>; returns `data` of the success envelope or throws an ApiError.
 * @param {'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>} the answer's `data`, whose shape the calling view knows
 */
export async function api(method, path, body) {
  const session = getSession();
  /** @type {Record<string, string>} */
  const headers = { accept: 'application/json' };
  if (session?.token) headers.authorization = `Bearer ${session.token}`;
  /** @type {RequestInit} */
  const init = { method, headers };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(`/admin/v1${path}`, init);
  } catch {
    throw new ApiError(0, 'The server could not be reached. Check your connection and try again.');
  }
  const json = await readJson(response);
  if (response.status === 401) {
    clearSession();
    onSessionExpired(session?.email);
    throw new ApiError(401, 'Your session has expired. Please log in again.');
  }
  if (!response.ok) throw errorFrom(response.status, json);
  return json?.data;
}

/** Percent-encodes one path segment (a clientId may hold "/", "?", "#" or spaces). */
export const seg = (/** @type {string} */ value) => encodeURIComponent(value);

/**
 * Only the latest call's answer is used. A view that loads again when a control changes (a filter, a
 * search, a period) starts a new load before the last one answered; answers come back in any order, and
 * a slower earlier one would draw the previous choice over the chosen one (it did on the Reports page).
 * Each call of the returned function starts a load and answers `isLatest()`: true until the next load
 * starts. Check it after every await, before drawing (an error of a stale load is not shown either).
 *   const startLoad = latestOnly();
 *   const load = async () => { const isLatest = startLoad(); const x = await api(…); if (!isLatest()) return; draw(x); };
 * @returns {() => () => boolean}
 */
export function latestOnly() {
  let latest = 0;
  return () => {
    const mine = ++latest;
    return () => mine === latest;
  };
}
