import { Writable } from 'node:stream';
import { expect, it, vi } from 'vitest';
import { createLogger, lazyChildLogger } from '../../src/logger.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, logger: createLogger({ logLevel: 'info' }, sink) };
}

it('the request logger makes its pino child only when a line is written, and the line keeps the request id', async () => {
  const { lines, logger } = capture();
  const child = vi.spyOn(logger, 'child');
  const requestLog = lazyChildLogger(logger, { reqId: 'req-1' }, {});
  requestLog.debug('below the level: nothing written, no child');
  expect(child).not.toHaveBeenCalled();
  requestLog.warn({ password: 'hunter2' }, 'written');
  requestLog.info('again');
  expect(child).toHaveBeenCalledTimes(1);
  await new Promise((resolve) => setImmediate(resolve));
  expect(lines.map((l) => [l.reqId, l.msg])).toEqual([
    ['req-1', 'written'],
    ['req-1', 'again'],
  ]);
  expect(lines[0]!.password).toBe('[redacted]');
});
