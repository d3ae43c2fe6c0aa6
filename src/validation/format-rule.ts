/**
 * The shape of a named value format (formats.ts, and each tax country's own in src/tax/): the check
 * the reader runs and the closest JSON Schema rendering, so the validator and the OpenAPI document
 * cannot drift.
 */

export interface FormatContext {
  businessCountry: string;
  enforceGstinChecksum: boolean;
}

export type FormatResult = { ok: true; value: string } | { ok: false; reason: string };

export interface FormatRule {
  description: string;
  jsonPattern?: string;
  jsonEnum?: readonly string[];
  check(value: string, context: FormatContext): FormatResult;
}

export const kept = (value: string): FormatResult => ({ ok: true, value });
export const rejected = (reason: string): FormatResult => ({ ok: false, reason });
export const byTest =
  (test: (value: string) => boolean, reason: string) =>
  (value: string): FormatResult =>
    test(value) ? kept(value) : rejected(reason);
