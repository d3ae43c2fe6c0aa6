import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { ShutdownStages } from '../../src/ops/shutdown-stages.js';

const SLOW_MS = 50;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function capture() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, logger: createLogger({ logLevel: 'warn' }, sink) };
}

it('a stage running past the slow mark is logged at warn while it runs and when it ends; a quick one is not', async () => {
  const { lines, logger } = capture();
  const stages = new ShutdownStages(logger, SLOW_MS);
  await stages.run('quick', async () => undefined);
  await stages.run('slow', () => sleep(SLOW_MS * 3));
  await new Promise((resolve) => setImmediate(resolve));
  expect(lines.map((line) => [line.level, line.msg, line.stage])).toEqual([
    [40, 'shutdown stage is slow', 'slow'],
    [40, 'shutdown stage finished late', 'slow'],
  ]);
  expect(lines[0]!.ms).toBeGreaterThanOrEqual(SLOW_MS);
  expect(lines[1]!.ms).toBeGreaterThanOrEqual(SLOW_MS * 3 - 5);
});

it('waiting() names the stages still running, with how long each has run, and forgets those ended or failed', async () => {
  const stages = new ShutdownStages(undefined, SLOW_MS);
  let release = () => {};
  const held = stages.run('held', () => new Promise<void>((resolve) => (release = resolve)));
  const failed = stages.run('failed', () => Promise.reject(new Error('refused')));
  await expect(failed).rejects.toThrow('refused');
  await sleep(20);
  const waiting = stages.waiting();
  expect(waiting).toEqual([{ stage: 'held', ms: expect.any(Number) }]);
  expect(waiting[0]!.ms).toBeGreaterThanOrEqual(15);
  release();
  await held;
  expect(stages.waiting()).toEqual([]);
});
