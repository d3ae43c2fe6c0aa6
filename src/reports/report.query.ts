import { AppError } from '../errors/app-error.js';
import { MONTHS_PARAMETER } from './report.period.js';

/** The query parameters of a report: each report names those it takes; any other is refused. */
export type ReportParameter = 'pipeline' | 'months';

export interface ReportQuery {
  /** The name of a pipeline, as sent (trimmed when resolved); undefined: the primary one. */
  pipeline?: string;
  months: number;
}

/** Reads a report's query: unknown names 400 INVALID_QUERY_FIELD, bad values 400 INVALID_QUERY_VALUE. */
export function parseReportQuery(raw: unknown, accepted: readonly ReportParameter[]): ReportQuery {
  const query = (raw ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(query)) {
    if (!(accepted as readonly string[]).includes(key))
      throw new AppError('INVALID_QUERY_FIELD', `${key} is not a parameter of this report`);
  }
  const parsed: ReportQuery = { months: MONTHS_PARAMETER.default };
  if (query.pipeline !== undefined) {
    if (typeof query.pipeline !== 'string' || query.pipeline.trim() === '')
      throw new AppError('INVALID_QUERY_VALUE', 'pipeline: send the name of one pipeline');
    parsed.pipeline = query.pipeline;
  }
  if (query.months !== undefined) {
    const text = query.months;
    const value = typeof text === 'string' && /^[0-9]{1,2}$/.test(text) ? Number(text) : Number.NaN;
    if (!(value >= MONTHS_PARAMETER.minimum && value <= MONTHS_PARAMETER.maximum))
      throw new AppError(
        'INVALID_QUERY_VALUE',
        `months must be a whole number from ${MONTHS_PARAMETER.minimum} to ${MONTHS_PARAMETER.maximum}`,
      );
    parsed.months = value;
  }
  return parsed;
}
