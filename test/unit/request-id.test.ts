import { expect, it } from 'vitest';
import { requestIds } from '../../src/http/request-id.js';

it('generated request ids are UUID-shaped, unique within a process and between processes', () => {
  const [one, other] = [requestIds(), requestIds()];
  const ids = Array.from({ length: 10_000 }, () => one(undefined));
  const others = Array.from({ length: 10_000 }, () => other(undefined));
  for (const id of [...ids.slice(0, 3), ...others.slice(0, 3)])
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(new Set([...ids, ...others]).size).toBe(20_000);
});

it('a well-formed incoming id is kept; anything else is replaced', () => {
  const next = requestIds();
  expect(next('trace-abc.123')).toBe('trace-abc.123');
  for (const bad of ['', 'has space', 'x'.repeat(65), ['a', 'b'], 42]) expect(next(bad)).toMatch(/^[0-9a-f-]{36}$/);
});
