import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_LIST_LIMITS } from '../../src/clients/clients-list.js';
import { CLIENT_ID_MAX_LENGTH } from '../../src/clients/client.schema.js';
import { CUSTOM_FIELD_LIMITS } from '../../src/custom-fields/custom-fields.schema.js';
import { LIMITS as INVOICE_LIMITS, PAYMENT_METHODS } from '../../src/invoices/invoice.schema.js';
import { MAX_FILTER_NAME } from '../../src/leads/lead-saved-filters.service.js';
import { LEAD_SETTINGS_LIMITS } from '../../src/leads/lead-settings.schema.js';
import { LIMITS as LEAD_LIMITS } from '../../src/leads/lead.schema.js';
import { MAX_LIMIT, MAX_SKIP } from '../../src/leads/leads.query.js';
import { BUSINESS_NAME_MAX_LENGTH } from '../../src/operator/businesses.service.js';
import { APP_NAME_MAX_LENGTH } from '../../src/operator/operator.inputs.js';
import {
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  OPERATOR_EMAIL_MAX_LENGTH,
} from '../../src/operator/operators.service.js';
import { LIMITS as PIPELINE_LIMITS } from '../../src/pipelines/pipelines.schema.js';
import { STAGE_STATE_LABELS } from '../../src/pipelines/pipelines.types.js';
import { EMAIL_MAX_LENGTH } from '../../src/validation/email.js';
import { MAX_DESCRIPTION, MAX_URL } from '../../src/webhooks/endpoint.rules.js';
import { call, describeEachStore } from '../helpers/app.js';

// The dashboard reads its limits and labels from the served OpenAPI document (api-document.js), never
// from copies (issue 35 item 3). This file holds the two halves of that promise: every lookup a dashboard
// module writes resolves in the served document to the server's own constant, and no module keeps a
// number of its own in a form control's bounds.

const PUBLIC = fileURLToPath(new URL('../../src/operator/dashboard/public/', import.meta.url));
const modules = readdirSync(PUBLIC)
  .filter((name) => name.endsWith('.js'))
  .map((name) => ({ name, text: readFileSync(join(PUBLIC, name), 'utf8') }));

type Resolver = { schemaAt: (doc: unknown, path: string) => Record<string, unknown> | undefined };
const resolver = async (): Promise<Resolver> => import(pathToFileURL(join(PUBLIC, 'api-document.js')).href);

/** "path keyword" → the server's constant: every numeric fact a dashboard module looks up. */
const SERVER_FACTS: Record<string, number> = {
  'LeadPatch.subject maxLength': LEAD_LIMITS.subject,
  'LeadPatch.details maxLength': LEAD_LIMITS.details,
  'OperatorLeadCreate.subject maxLength': LEAD_LIMITS.subject,
  'OperatorLeadCreate.customer.name maxLength': LEAD_LIMITS.name,
  'OperatorLeadCreate.contact.name maxLength': LEAD_LIMITS.name,
  'OperatorLeadCreate.contact.email maxLength': EMAIL_MAX_LENGTH,
  'LeadNotesInput.body[] maxLength': LEAD_LIMITS.entryLength,
  'saveLeadSavedFilter.name maxLength': MAX_FILTER_NAME,
  'listLeadsAsOperator?$limit maximum': MAX_LIMIT,
  'listLeadsAsOperator?$skip maximum': MAX_SKIP,
  'LeadSourceInput.label maxLength': LEAD_SETTINGS_LIMITS.label,
  'LeadSourceInput.key maxLength': LEAD_SETTINGS_LIMITS.sourceKey,
  'TagInput.name maxLength': LEAD_SETTINGS_LIMITS.tagName,
  'MemberInput.name maxLength': LEAD_SETTINGS_LIMITS.memberName,
  'MemberInput.email maxLength': EMAIL_MAX_LENGTH,
  'LeadCustomFieldsInput.fields[].name maxLength': CUSTOM_FIELD_LIMITS.name,
  'CustomFieldsInput.fields[].name maxLength': CUSTOM_FIELD_LIMITS.name,
  'PipelineConfigurationInput.pipelines[].name maxLength': PIPELINE_LIMITS.name,
  'PipelineConfigurationInput.pipelines[].description maxLength': PIPELINE_LIMITS.description,
  'PipelineConfigurationInput.pipelines[].stages[].name maxLength': PIPELINE_LIMITS.name,
  'PipelineConfigurationInput.pipelines[].stages[].closure minimum': 0,
  'PipelineConfigurationInput.pipelines[].stages[].closure maximum': PIPELINE_LIMITS.closure,
  'PipelineConfigurationInput.pipelines[].stages[].decayThresholdHours minimum': 0,
  'PipelineConfigurationInput.stageReasons[].key maxLength': PIPELINE_LIMITS.reasonKey,
  'PipelineConfigurationInput.stageReasons[].label maxLength': PIPELINE_LIMITS.reasonLabel,
  'OperatorInput.email maxLength': OPERATOR_EMAIL_MAX_LENGTH,
  'OperatorInput.password minLength': MIN_PASSWORD_LENGTH,
  'OperatorInput.password maxLength': MAX_PASSWORD_LENGTH,
  'PasswordChange.newPassword minLength': MIN_PASSWORD_LENGTH,
  'PasswordChange.newPassword maxLength': MAX_PASSWORD_LENGTH,
  'AppInput.name maxLength': APP_NAME_MAX_LENGTH,
  'BusinessInput.name maxLength': BUSINESS_NAME_MAX_LENGTH,
  'BusinessPatch.name maxLength': BUSINESS_NAME_MAX_LENGTH,
  'PaymentCreate.refId maxLength': INVOICE_LIMITS.refId,
  'WebhookEndpointInput.url maxLength': MAX_URL,
  'WebhookEndpointInput.description maxLength': MAX_DESCRIPTION,
  'ClientCreate.clientId maxLength': CLIENT_ID_MAX_LENGTH,
  'listClientsAsOperator?q maxLength': CLIENT_LIST_LIMITS.maxQ,
};

/** Enum lookups (labels(), choices()) → the server's list of values, in order. */
const SERVER_ENUMS: Record<string, readonly string[]> = {
  'Lead.status': Object.keys(STAGE_STATE_LABELS),
  'Stage.state': Object.keys(STAGE_STATE_LABELS),
  'PaymentCreate.paymentMethod': PAYMENT_METHODS,
};

/** Every lookup written in the dashboard modules: limit('path'[, 'keyword']), labels('path'), choices('path'). */
function lookups(): { kind: string; key: string; module: string }[] {
  const call = /\b(limit|labels|choices)\(\s*'([^']+)'(?:\s*,\s*'(\w+)')?\s*\)/g;
  // api-document.js itself only shows lookups in its comment.
  return modules.flatMap(({ name, text }) =>
    (name === 'api-document.js' ? [] : [...text.matchAll(call)]).map(([, kind, path, keyword]) => ({
      kind: kind!,
      key: kind === 'limit' ? `${path} ${keyword ?? 'maxLength'}` : path!,
      module: name,
    })),
  );
}

describe('dashboard modules name their facts where a test can read them', () => {
  it('every lookup takes a literal path (no computed one a grep could miss)', () => {
    const computed = modules.flatMap(({ name, text }) =>
      name === 'api-document.js' ? [] : [...text.matchAll(/\b(?:limit|labels|choices)\((?!\s*')/g)].map(() => name),
    );
    expect(computed).toEqual([]);
  });

  it('every numeric lookup has its server constant in this file', () => {
    const missing = lookups()
      .filter((l) => l.kind === 'limit' && !(l.key in SERVER_FACTS))
      .map((l) => `${l.module}: ${l.key}`);
    expect(missing).toEqual([]);
    expect(lookups().length).toBeGreaterThan(30);
  });

  it('no module keeps a number of its own in a control bound (maxlength, minlength, max) or a status label', () => {
    // Widths of codes are the codes' own (ISO 3166 alpha-2, ISO 4217, a GST state code), and a
    // business key's 63 comes from its pattern; nothing else may be written as a number.
    const allowed = new Set(['2', '3', '63']);
    const bound = /\b(maxlength|minlength|max|maxLength|minLength|maxItems)\s*:\s*['"]?(\d[\d_]*)/g;
    const found = modules.flatMap(({ name, text }) =>
      [...text.matchAll(bound)].filter(([, , value]) => !allowed.has(value!)).map(([match]) => `${name}: ${match}`),
    );
    const attribute = modules.flatMap(({ name, text }) =>
      [...text.matchAll(/setAttribute\('(?:maxlength|minlength|max)',\s*'(\d+)'\)/g)]
        .filter(([, value]) => !allowed.has(value!))
        .map(([match]) => `${name}: ${match}`),
    );
    const copiedLabels = modules.filter(({ text }) => /\bNEW:\s*'New'/.test(text)).map(({ name }) => name);
    expect([...found, ...attribute, ...copiedLabels]).toEqual([]);
  });
});

describeEachStore('dashboard facts in the served document', (ctx) => {
  let doc: unknown;
  let schemaAt: Resolver['schemaAt'];
  beforeAll(async () => {
    doc = (await call(ctx().app, 'GET', '/openapi.json')).body;
    schemaAt = (await resolver()).schemaAt;
  });

  it.each(Object.entries(SERVER_FACTS))('%s equals the server constant', (key, constant) => {
    const [path, keyword] = key.split(' ') as [string, string];
    expect(schemaAt(doc, path)?.[keyword]).toBe(constant);
  });

  it.each(Object.entries(SERVER_ENUMS))('%s lists the server values', (path, values) => {
    const served = (schemaAt(doc, path)?.enum ?? []) as unknown[];
    expect(served.filter((v) => v !== null)).toEqual([...values]);
  });

  it('status labels are served beside the enum, one for each status', () => {
    for (const path of ['Lead.status', 'Stage.state']) {
      expect(schemaAt(doc, path)?.['x-enumLabels']).toEqual(STAGE_STATE_LABELS);
    }
  });

  it('every enum lookup of a dashboard module is one this file checks', () => {
    const unchecked = lookups()
      .filter((l) => l.kind !== 'limit' && !(l.key in SERVER_ENUMS))
      .map((l) => `${l.module}: ${l.key}`);
    expect(unchecked).toEqual([]);
  });
});
