import { afterEach, expect, it, vi } from 'vitest';
import { newMessageId } from '../../src/webhooks/signing.js';

afterEach(() => vi.useRealTimers());

it('message ids are unique, URL-safe, and ids made later sort after earlier ones (the outbox index grows at its end)', () => {
  vi.useFakeTimers();
  const ids: string[] = [];
  for (let ms = 0; ms < 50; ms++) {
    vi.setSystemTime(new Date(Date.UTC(2026, 10, 24, 12, 0, 0, ms * 7)));
    ids.push(newMessageId(), newMessageId());
  }
  expect(new Set(ids).size).toBe(ids.length);
  for (const id of ids) expect(id).toMatch(/^msg_[0-9a-f]{12}[0-9a-f]{32}$/);
  // Two ids of the same millisecond share their time and may sort either way; across milliseconds they sort by time.
  const byTime = ids.filter((_, i) => i % 2 === 0);
  expect([...byTime].sort()).toEqual(byTime);
});
