import type { JsonSchema } from '../validation/json-schema.js';
import { AGEING_BUCKETS } from '../storage/reports-invoices.store.js';
import { MONTHS_PARAMETER } from './report.period.js';
import type { ReportParameter } from './report.query.js';

/** The reports' query parameters and answer schemas (the shapes of reports.types.ts). */

const MONTH = { type: 'string', pattern: '^\\d{4}-\\d{2}$', description: 'YYYY-MM.' };
const DECIMAL = {
  type: 'string',
  pattern: '^-?\\d+(\\.\\d+)?$',
  description: 'An exact decimal string (no float rounding): it may exceed what a JSON number holds exactly.',
};
const object = (properties: Record<string, JsonSchema>, description?: string): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
  ...(description && { description }),
});

export const REPORT_PARAMETERS: Record<ReportParameter, { name: string; description: string; schema: JsonSchema }> = {
  pipeline: {
    name: 'pipeline',
    description:
      'The name of one pipeline (archived ones included); default the primary pipeline, else the first live one.',
    schema: { type: 'string' },
  },
  months: {
    name: 'months',
    description: `How many calendar months of the business's time zone the period covers, ending with the current month (${MONTHS_PARAMETER.minimum} to ${MONTHS_PARAMETER.maximum}).`,
    schema: {
      type: 'integer',
      minimum: MONTHS_PARAMETER.minimum,
      maximum: MONTHS_PARAMETER.maximum,
      default: MONTHS_PARAMETER.default,
    },
  },
};

const FRAME = {
  locale: { type: 'string', description: "The business's locale (ll-CC, its country's), to format figures with." },
  timeZone: { type: 'string', description: "The business's IANA time zone: months and days are counted in it." },
  currency: { type: 'string', description: "The business's currency (ISO 4217)." },
};
const PERIOD = object({ firstMonth: MONTH, lastMonth: MONTH }, 'The months covered, first and last.');
const STAGE = {
  id: { type: 'string' },
  name: { type: 'string' },
  state: { enum: ['NEW', 'OPEN', 'CLOSED', 'DROPPED', 'REJECTED'] },
  isArchived: { type: 'boolean' },
};
const MONEY = object({
  currency: { type: 'string', description: 'ISO 4217.' },
  amount: { ...DECIMAL, description: "Exactly the currency's minor-unit decimals (`1180.00`, JPY `236`)." },
  count: { type: 'integer', minimum: 0, description: 'Invoices (or payments) summed.' },
});
const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });

export const REPORT_SCHEMAS: Record<string, JsonSchema> = {
  PipelineReport: object({
    ...FRAME,
    pipeline: { type: ['string', 'null'], description: 'Null when the business has no live pipeline.' },
    stages: {
      type: 'array',
      description: 'Every stage of the pipeline in configured order, archived ones included.',
      items: object({
        ...STAGE,
        closure: { type: ['number', 'null'], description: "The stage's closure percentage; null when unset." },
        count: { type: 'integer', minimum: 0, description: 'Live leads in the stage.' },
        values: {
          type: 'array',
          description: 'Their budgets summed per currency (leads without one add nothing), in currency order.',
          items: object({
            currency: { type: 'string' },
            amount: DECIMAL,
            weighted: nullable({ ...DECIMAL, description: 'amount × closure / 100, exact; null without a closure.' }),
          }),
        },
      }),
    },
    forecast: {
      type: 'array',
      description: "Per currency: the pipeline's value and its weighted forecast (stages without a closure add 0).",
      items: object({ currency: { type: 'string' }, amount: DECIMAL, weighted: DECIMAL }),
    },
  }),
  OutcomesReport: object({
    ...FRAME,
    period: PERIOD,
    pipeline: { type: ['string', 'null'] },
    months: {
      type: 'array',
      description:
        'Each month of the period, oldest first: leads now in a CLOSED stage (won) or a DROPPED or REJECTED one (lost), by the month they entered it.',
      items: object({ month: MONTH, won: { type: 'integer' }, lost: { type: 'integer' } }),
    },
    lostByReason: {
      type: 'array',
      description:
        "The period's lost leads per stage reason on the lead (one with two reasons counts under each; none: reason null), most first.",
      items: object({
        reason: { type: ['string', 'null'], description: "The reason's key." },
        label: { type: ['string', 'null'], description: "The reason's current label." },
        leads: { type: 'integer' },
      }),
    },
  }),
  StageFlowReport: object({
    ...FRAME,
    period: PERIOD,
    pipeline: { type: ['string', 'null'] },
    stages: {
      type: 'array',
      items: object({
        ...STAGE,
        entered: { type: 'integer', description: 'Leads that entered the stage within the period.' },
        won: { type: 'integer', description: 'Of those, the leads now in a CLOSED stage of the pipeline.' },
        conversion: { type: ['number', 'null'], description: 'won / entered, 4 decimals; null when none entered.' },
        stays: { type: 'integer', description: 'Stays in the stage that ended (the lead moved on) within the period.' },
        medianDays: {
          type: ['number', 'null'],
          description: 'Their median length in days of 24 hours, 2 decimals; null without stays.',
        },
      }),
    },
  }),
  InvoicingReport: object({
    ...FRAME,
    period: PERIOD,
    months: {
      type: 'array',
      description: 'Each month of the period, oldest first.',
      items: object({
        month: MONTH,
        invoiced: { type: 'array', description: 'Non-canceled invoices by invoice date, per currency.', items: MONEY },
        collected: {
          type: 'array',
          description: 'Live payments by payment date (amount + tds + transactionCharge), per invoice currency.',
          items: MONEY,
        },
      }),
    },
  }),
  ReceivablesReport: object({
    ...FRAME,
    asOf: { type: 'string', description: "Today's date (YYYY-MM-DD) in the business's time zone." },
    buckets: {
      type: 'array',
      description:
        'What unpaid and partly paid invoices still owe (total − amountPaid), by calendar days past due: current (not yet due, or no due date), then 0-30 (due today included), 31-60, 61-90, over 90.',
      items: object({ bucket: { enum: [...AGEING_BUCKETS] }, amounts: { type: 'array', items: MONEY } }),
    },
  }),
};
