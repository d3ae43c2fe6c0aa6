// @module-tag dates
import { describe, expect, it } from 'vitest';
import { parseFollowUpDate, todayIn } from '../../src/leads/lead.dates.js';

describe('4.2 followUpDate forms', () => {
  it.each([
    ['2030-02-28', '2030-02-28'],
    ['2028-02-29', '2028-02-29'],
    ['2030-05-01T00:00:00Z', '2030-05-01'],
    ['2030-05-01T23:30:00+05:30', '2030-05-01'],
    ['2030-05-01T02:00:00+05:30', '2030-04-30'],
    ['2030-05-01T20:00:00.123456-07:00', '2030-05-02'],
    ['2030-05-01t10:00z', '2030-05-01'],
  ])('%s is the date %s (an instant counts by its UTC date)', (value, date) => {
    expect(parseFollowUpDate(value)).toBe(date);
  });

  it.each([
    '2030-02-29',
    '2030-13-01',
    '2030-1-01',
    '20300101',
    '2030-05-01T25:00:00Z',
    '2030-05-01T10:00',
    'tomorrow',
    '',
    '0000-01-01',
    '2030-05-01 10:00:00Z',
  ])('%j is refused', (value) => {
    expect(parseFollowUpDate(value)).toBeUndefined();
  });
});

describe('today in a time zone', () => {
  const instant = Date.UTC(2030, 0, 1, 20, 0); // 2030-01-01 20:00 UTC
  it.each([
    ['UTC', '2030-01-01'],
    ['Asia/Kolkata', '2030-01-02'],
    ['America/Los_Angeles', '2030-01-01'],
    ['Pacific/Kiritimati', '2030-01-02'],
    ['Not/AZone', '2030-01-01'],
  ])('%s: %s', (zone, date) => {
    expect(todayIn(zone, instant)).toBe(date);
  });
});
