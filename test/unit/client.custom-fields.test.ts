// @module-tag dates
import { describe, expect, it } from 'vitest';
import { isCalendarDate } from '../../src/clients/client.custom-fields.js';
import { validateClient } from '../../src/clients/client.validate.js';
import { base, context, failures, valid } from './support/client-context.js';

const BAD = 'INVALID_CUSTOM_FIELD_VALUE';

describe('2.8 custom fields', () => {
  it('stores values by field id, matching names case-insensitively', () => {
    const value = valid({
      ...base,
      customFields: {
        region: 'North',
        NOTES: 'hi',
        'Credit Limit': 1500.5,
        'customer since': '2024-02-29',
        VIP: false,
      },
    });
    expect(value.customFields).toEqual({
      'cf-region': 'North',
      'cf-notes': 'hi',
      'cf-limit': 1500.5,
      'cf-since': '2024-02-29',
      'cf-vip': false,
    });
  });

  it('null is not set, but the name must still resolve', () => {
    expect(valid({ ...base, customFields: { Notes: null } }).customFields).toEqual({});
    expect(failures({ ...base, customFields: { Nope: null } })).toEqual([['customFields', 'INVALID_CUSTOM_FIELD']]);
  });

  it('reports every unknown or archived name together in one INVALID_CUSTOM_FIELD', () => {
    const result = validateClient(
      { ...base, customFields: { Region: 'North', Nope: 1, 'Legacy Code': 'x', ' Region': 'North' } },
      context(),
      'api',
    );
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors).toEqual([
        {
          field: 'customFields',
          code: 'INVALID_CUSTOM_FIELD',
          message: 'customFields has no live custom field named "Nope", "Legacy Code", " Region"',
        },
      ]);
    }
  });

  it('keeps body order between value errors and the unknown-name error', () => {
    expect(failures({ ...base, customFields: { VIP: 'yes', Nope: 1, Region: 'East', Other: 2 } })).toEqual([
      ['customFields.VIP', BAD],
      ['customFields', 'INVALID_CUSTOM_FIELD'],
      ['customFields.Region', BAD],
    ]);
  });

  it('refuses one field named twice', () => {
    expect(failures({ ...base, customFields: { Notes: 'a', notes: 'b' } })).toEqual([
      ['customFields.notes', 'INVALID_CUSTOM_FIELD'],
    ]);
  });

  it('CUSTOM_FIELDS_NOT_ENABLED for a business without custom fields; an empty object asks nothing', () => {
    const off = context({ customFieldsEnabled: false });
    expect(failures({ ...base, customFields: { Notes: 'x' } }, off)).toEqual([
      ['customFields', 'CUSTOM_FIELDS_NOT_ENABLED'],
    ]);
    expect(valid({ ...base, customFields: {} }, off).customFields).toEqual({});
    expect(valid({ ...base, customFields: null }, off).customFields).toEqual({});
  });

  it.each([
    ['Notes', 42],
    ['Notes', 'x'.repeat(2501)],
    ['Notes', 'a\u0000'],
    ['Notes', true],
    ['Credit Limit', '10'],
    ['Credit Limit', true],
    ['Credit Limit', Number.POSITIVE_INFINITY],
    ['Credit Limit', Number.NaN],
    ['VIP', 'true'],
    ['VIP', 1],
    ['Region', 'north'],
    ['Region', 'East'],
    ['Region', 1],
    ['Customer Since', '2023-02-29'],
    ['Customer Since', '2024-13-01'],
    ['Customer Since', '2024-1-01'],
    ['Customer Since', 20240101],
    ['Customer Since', '2024-01-01T00:00:00Z'],
  ])('%s = %j is INVALID_CUSTOM_FIELD_VALUE', (name, raw) => {
    expect(failures({ ...base, customFields: { [name]: raw } })).toEqual([[`customFields.${name}`, BAD]]);
  });

  it('TEXT accepts 2500 characters and the empty string', () => {
    expect(valid({ ...base, customFields: { Notes: 'x'.repeat(2500) } }).customFields['cf-notes']).toHaveLength(2500);
    expect(valid({ ...base, customFields: { Notes: '' } }).customFields['cf-notes']).toBe('');
  });

  it('a SELECT with no options accepts nothing', () => {
    const ctx = context({
      customFields: [{ id: 'cf-s', name: 'Size', type: 'SELECT', options: null, isArchived: false }],
    });
    expect(failures({ ...base, customFields: { Size: 'L' } }, ctx)).toEqual([['customFields.Size', BAD]]);
  });
});

describe('DATE custom values are real calendar dates', () => {
  it.each([
    ['2024-02-29', true],
    ['2023-02-28', true],
    ['2000-02-29', true],
    ['1900-02-29', false],
    ['0001-01-01', true],
    ['0000-01-01', false],
    ['2024-04-31', false],
    ['2024-12-31', true],
    ['2024-00-10', false],
    ['2024-01-00', false],
    ['24-01-01', false],
  ])('%s → %s', (date, ok) => expect(isCalendarDate(date)).toBe(ok));
});
