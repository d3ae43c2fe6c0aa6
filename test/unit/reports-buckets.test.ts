import { describe, expect, it } from 'vitest';
import { periodMonths } from '../../src/reports/report.period.js';
import {
  bucketKeyOf,
  intervalSums,
  lengthBucket,
  lengthBucketRange,
  msEdge,
  nearestBoundary,
  textEdge,
} from '../../src/storage/reports-buckets.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('report rollup buckets (migration 028)', () => {
  it('the nearest UTC month or day start, before or after', () => {
    expect(nearestBoundary(Date.parse('2026-10-31T18:30:00Z'), 'month')).toBe(Date.parse('2026-11-01T00:00:00Z'));
    expect(nearestBoundary(Date.parse('2026-11-01T08:00:00Z'), 'month')).toBe(Date.parse('2026-11-01T00:00:00Z'));
    expect(nearestBoundary(Date.parse('2026-11-14T12:00:00Z'), 'month')).toBe(Date.parse('2026-11-01T00:00:00Z'));
    expect(nearestBoundary(Date.parse('2026-11-20T18:15:00Z'), 'day')).toBe(Date.parse('2026-11-21T00:00:00Z'));
    expect(bucketKeyOf(Date.parse('2026-12-31T23:59:59.999Z'), 'month')).toBe('2026-12');
    expect(bucketKeyOf(Date.parse('2026-12-31T23:59:59.999Z'), 'day')).toBe('2026-12-31');
  });

  it.each([
    ['Asia/Kolkata', 5.5],
    ['Asia/Kathmandu', 5.75],
    ['America/Los_Angeles', -8],
    ['Pacific/Kiritimati', 14],
    ['Pacific/Pago_Pago', -11],
  ])('a month of %s starts within 14 hours of a UTC month start: its raw piece is that long', (zone) => {
    for (const month of periodMonths(zone, Date.parse('2026-11-20T06:00:00Z'), 24)) {
      const edge = msEdge(month.from, 'month');
      expect(edge.hi - edge.lo).toBeLessThanOrEqual(14 * HOUR);
      expect(edge.key).toMatch(/^\d{4}-\d{2}$/);
      if (edge.sign === 1) expect(edge.lo).toBe(Date.parse(`${edge.key}-01T00:00:00Z`));
      if (edge.sign === -1) expect(edge.hi).toBe(Date.parse(`${edge.key}-01T00:00:00Z`));
    }
  });

  it('a UTC month start needs no piece; a text edge is a text range', () => {
    expect(msEdge(Date.parse('2026-11-01T00:00:00Z'), 'month')).toMatchObject({ key: '2026-11', sign: 0 });
    expect(textEdge('2026-10-31T18:30:00.000Z', 'month')).toEqual({
      key: '2026-11',
      sign: -1,
      lo: '2026-10-31T18:30:00.000Z',
      hi: '2026-11',
    });
    expect(textEdge('2026-11-01T05:00:00.000Z', 'day')).toEqual({
      key: '2026-11-01',
      sign: 1,
      lo: '2026-11-01',
      hi: '2026-11-01T05:00:00.000Z',
    });
  });

  it('interval sums: the buckets between the edges, plus and minus each edge piece', () => {
    // Months of +05:30: Oct starts 30 Sep 18:30 UTC (piece before the Oct bucket, taken from September's
    // side), Nov starts 31 Oct 18:30 UTC.
    const edges = ['2026-09-30T18:30:00Z', '2026-10-31T18:30:00Z', '2026-11-30T18:30:00Z'].map((at) =>
      msEdge(Date.parse(at), 'month'),
    );
    const buckets = [
      { bucket: '2026-09', group: 'x', values: [100n] },
      { bucket: '2026-10', group: 'x', values: [10n] },
      { bucket: '2026-11', group: 'x', values: [20n] },
      { bucket: '2026-12', group: 'x', values: [1000n] },
    ];
    // 1 row in the last 5.5 h of September (belongs to October), 2 in the last 5.5 h of October (November's).
    const pieces = [
      { edge: 0, group: 'x', values: [1n] },
      { edge: 1, group: 'x', values: [2n] },
    ];
    const [october, november] = intervalSums(edges, buckets, pieces);
    expect(october!.get('x')).toEqual([10n + 1n - 2n]);
    expect(november!.get('x')).toEqual([20n + 2n]);
  });

  it('length buckets: hours to 2 days, days to 63, weeks to 104, then 4 weeks; ranges hold their lengths', () => {
    expect(lengthBucket(0).key).toBe('h:0');
    expect(lengthBucket(47 * HOUR + 1).key).toBe('h:47');
    expect(lengthBucket(48 * HOUR).key).toBe('d:2');
    expect(lengthBucket(63 * DAY).key).toBe('w:9');
    expect(lengthBucket(728 * DAY).key).toBe('f:26');
    expect(lengthBucket(-1)).toMatchObject({ key: 'n:0', hi: 0 });
    for (const ms of [0, 1, HOUR, 36 * HOUR, 2 * DAY, 62 * DAY + 5, 63 * DAY, 400 * DAY, 727 * DAY, 3000 * DAY]) {
      const bucket = lengthBucket(ms);
      expect(lengthBucketRange(bucket.key)).toEqual({ lo: bucket.lo, hi: bucket.hi });
      expect(ms >= bucket.lo && ms < bucket.hi).toBe(true);
    }
  });
});
