import { setImmediate as nextTurn } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { coalescedSends } from '../../src/http/coalesced-sends.js';

it('answers handed over in one turn are released together, in order, after that turn', async () => {
  const writeWithOthers = coalescedSends();
  const released: string[] = [];
  const pending = ['a', 'b', 'c'].map((answer) => writeWithOthers(answer).then((value) => released.push(value)));
  await Promise.resolve();
  await Promise.resolve();
  expect(released).toEqual([]);
  await Promise.all(pending);
  expect(released).toEqual(['a', 'b', 'c']);
});

it('an answer handed over in a later turn waits only for that turn', async () => {
  const writeWithOthers = coalescedSends();
  expect(await writeWithOthers('first')).toBe('first');
  await nextTurn();
  const started = process.hrtime.bigint();
  expect(await writeWithOthers('second')).toBe('second');
  expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(50);
});

it('answers handed over in one turn go out together, even with another task queued between them', async () => {
  // Released one by one (a setImmediate each), the task queued after "a" would run before "b" and "c".
  const writeWithOthers = coalescedSends();
  const order: string[] = [];
  const first = writeWithOthers('a').then((value) => order.push(value));
  setImmediate(() => order.push('a task queued in between'));
  const rest = ['b', 'c'].map((answer) => writeWithOthers(answer).then((value) => order.push(value)));
  await Promise.all([first, ...rest]);
  await nextTurn();
  expect(order).toEqual(['a', 'b', 'c', 'a task queued in between']);
});
