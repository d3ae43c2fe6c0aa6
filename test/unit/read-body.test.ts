import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors/app-error.js';
import { NEW_BUSINESS_RULES } from '../../src/operator/businesses.service.js';
import { DOCUMENT_RULES } from '../../src/clients/client.documents.js';
import { readCustomFieldSet } from '../../src/custom-fields/custom-fields.service.js';
import { readPipelineConfig } from '../../src/pipelines/pipelines.validate.js';
import { EMPTY_BODY, readBody } from '../../src/validation/read-body.js';

const none = { pipelines: new Set<string>(), stages: new Set<string>() };

function failures(read: () => unknown): [string, string, string][] {
  try {
    read();
  } catch (error) {
    if (error instanceof AppError) return (error.fieldErrors ?? []).map((e) => [e.field, e.code, e.message]);
    throw error;
  }
  throw new Error('expected a 400');
}

describe('issue 27: one body reader for every body (docs/decisions.md "Rules as tables")', () => {
  it('operator bodies: a missing required member first, then the others in body order, named as sent', () => {
    expect(failures(() => readBody({ currency: 'RS', name: '   ', extra: 1 }, NEW_BUSINESS_RULES))).toEqual([
      ['country', 'INVALID_FIELD_VALUE', 'country is required'],
      ['currency', 'INVALID_FIELD_VALUE', 'currency must be an ISO 4217 code'],
      ['name', 'INVALID_FIELD_VALUE', 'name must not be empty after trimming'],
      ['extra', 'INVALID_FIELD', 'extra is not an accepted field'],
    ]);
    expect(failures(() => readBody({ type: 'invoice', amount: '5' }, DOCUMENT_RULES))).toEqual([
      ['amount', 'INVALID_FIELD', 'amount must be a number'],
    ]);
    expect(failures(() => readBody({ type: 'invoice', amount: 1e12 }, DOCUMENT_RULES))).toEqual([
      ['amount', 'INVALID_FIELD_VALUE', 'amount is out of range'],
    ]);
  });

  it('names are trimmed before their limit; bodyless actions take nothing, an empty body or {}', () => {
    expect(readBody({ name: ` ${'a'.repeat(500)} `, country: 'IN' }, NEW_BUSINESS_RULES)).toEqual({
      name: 'a'.repeat(500),
      country: 'IN',
    });
    expect(readBody(undefined, EMPTY_BODY, { allowEmpty: true })).toEqual({});
    expect(readBody({}, EMPTY_BODY)).toEqual({});
    expect(failures(() => readBody({ a: 1 }, EMPTY_BODY))).toEqual([
      ['a', 'INVALID_FIELD', 'a is not an accepted field'],
    ]);
  });

  it('pipelines and custom fields: the same texts for the same failures', () => {
    expect(
      failures(() => readPipelineConfig({ pipelines: [{ name: 'a\u0000', stages: [] }], stageReasons: [] }, none)),
    ).toEqual([
      [
        'pipelines[0].name',
        'INVALID_FIELD_VALUE',
        'pipelines[0].name must not contain NUL characters or unpaired surrogates',
      ],
    ]);
    expect(failures(() => readCustomFieldSet({ fields: [{ name: 'a\u0000', type: 'TEXT' }] }, []))).toEqual([
      [
        'fields[0].name',
        'INVALID_FIELD_VALUE',
        'fields[0].name must not contain NUL characters or unpaired surrogates',
      ],
    ]);
  });

  it('a list over its limit is reported once, at the list, without reading its entries', () => {
    const fields = Array.from({ length: 201 }, () => ({ name: '', type: 'NOPE' }));
    expect(failures(() => readCustomFieldSet({ fields }, []))).toEqual([
      ['fields', 'INVALID_FIELD_VALUE', 'fields must hold at most 200 entries'],
    ]);
  });
});
