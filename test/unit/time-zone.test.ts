// @module-tag dates
import { expect, it } from 'vitest';

// The suite runs in two zones (vitest.config.ts); this guards that the second one really is in force.
it('runs in the zone its project names', () => {
  const offset = new Date('2026-01-01T00:00:00Z').getTimezoneOffset();
  expect([0, -330]).toContain(offset);
  expect(offset === -330).toBe(process.env.TZ === 'Asia/Kolkata');
});
