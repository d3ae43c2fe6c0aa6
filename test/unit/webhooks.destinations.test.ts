import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { refusedAddress } from '../../src/webhooks/destination-guard.js';
import { postOnce } from '../../src/webhooks/http-post.js';
import { MAX_ATTEMPTS, retryDelayMs } from '../../src/webhooks/retry-schedule.js';

describe('webhook destinations: refused on the address', () => {
  it.each([
    ['127.0.0.1', 'a loopback'],
    ['127.9.9.9', 'a loopback'],
    ['::1', 'a loopback'],
    ['::ffff:127.0.0.1', 'a loopback'],
    ['::ffff:7f00:1', 'a loopback'],
    ['10.0.0.1', 'a loopback'],
    ['172.16.5.4', 'a loopback'],
    ['192.168.1.1', 'a loopback'],
    ['100.64.0.1', 'a loopback'],
    ['169.254.1.1', 'a loopback'],
    ['fe80::1', 'a loopback'],
    ['fd12::1', 'a loopback'],
    ['169.254.169.254', 'a cloud metadata'],
    ['fd00:ec2::254', 'a cloud metadata'],
    ['::ffff:a9fe:a9fe', 'a cloud metadata'],
    ['0.0.0.0', 'a reserved'],
    ['224.0.0.1', 'a reserved'],
    ['::', 'a reserved'],
  ])('%s is refused (%s)', (address, reason) => {
    expect(refusedAddress(address, false)).toMatch(new RegExp(`^${reason}`));
  });

  it('public addresses pass; with WEBHOOKS_ALLOW_PRIVATE private ones pass, metadata and reserved never', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:2800:220:1::1'])
      expect(refusedAddress(address, false)).toBeUndefined();
    for (const address of ['127.0.0.1', '10.0.0.1', '::1', 'fe80::1'])
      expect(refusedAddress(address, true)).toBeUndefined();
    for (const address of ['169.254.169.254', 'fd00:ec2::254', '0.0.0.0'])
      expect(refusedAddress(address, true)).toBeDefined();
  });
});

describe('webhook POST: checked on the resolved address, no redirect, bounded answer', () => {
  const limits = { connectTimeoutMs: 1000, timeoutMs: 1000, maxAnswerBytes: 64, allowPrivate: false };

  async function withServer(
    handler: Parameters<typeof createServer>[1],
    run: (port: number, hits: () => number) => Promise<void>,
  ) {
    let hits = 0;
    const server = createServer((req, res) => {
      hits++;
      handler!(req, res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      await run(port, () => hits);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  }

  it('a name resolving to 127.0.0.1 (localhost) is refused before any connection; an IP literal too', async () => {
    await withServer(
      (_q, s) => s.writeHead(204).end(),
      async (port, hits) => {
        for (const url of [
          `http://localhost:${port}/`,
          `http://127.0.0.1:${port}/`,
          `http://[::ffff:127.0.0.1]:${port}/`,
        ]) {
          const result = await postOnce(new URL(url), {}, '{}', limits);
          expect(result.statusCode, url).toBeNull();
          expect(result.error, url).toMatch(/destination refused/);
        }
        expect(hits()).toBe(0);
        const allowed = await postOnce(new URL(`http://localhost:${port}/`), {}, '{}', {
          ...limits,
          allowPrivate: true,
        });
        expect(allowed).toMatchObject({ statusCode: 204, error: null });
        expect(hits()).toBe(1);
      },
    );
  });

  it('a redirect is not followed; an endless answer is cut; a silent server times out', async () => {
    const open = { ...limits, allowPrivate: true };
    await withServer(
      (_q, s) => s.writeHead(302, { location: 'http://169.254.169.254/' }).end(),
      async (port) => {
        expect(await postOnce(new URL(`http://127.0.0.1:${port}/`), {}, '{}', open)).toMatchObject({
          statusCode: 302,
          error: 'redirect not followed',
        });
      },
    );
    await withServer(
      (_q, s) => {
        s.writeHead(200);
        const timer = setInterval(() => s.write('x'.repeat(1024)), 5);
        s.on('close', () => clearInterval(timer));
      },
      async (port) => {
        const result = await postOnce(new URL(`http://127.0.0.1:${port}/`), {}, '{}', open);
        expect(result).toMatchObject({ statusCode: 200, error: null });
        expect(result.durationMs).toBeLessThan(900);
      },
    );
    await withServer(
      () => undefined,
      async (port) => {
        const result = await postOnce(new URL(`http://127.0.0.1:${port}/`), {}, '{}', { ...open, timeoutMs: 300 });
        expect(result.statusCode).toBeNull();
        expect(result.error).toMatch(/no answer within 300 ms/);
      },
    );
  });
});

describe('webhook retry schedule', () => {
  it('13 retries, growing ×3 to 12 hours, about 69 hours in all with the default base, jittered ±20%', () => {
    expect(MAX_ATTEMPTS).toBe(14);
    const mid = () => 0.5;
    const delays = Array.from({ length: MAX_ATTEMPTS }, (_, i) => retryDelayMs(i + 1, 10_000, mid));
    expect(delays.at(-1)).toBeNull();
    const total = (delays.slice(0, -1) as number[]).reduce((a, b) => a + b, 0);
    expect(total / 3_600_000).toBeGreaterThan(60);
    expect(total / 3_600_000).toBeLessThan(72);
    expect(delays[0]).toBe(10_000);
    expect(Math.max(...(delays.slice(0, -1) as number[]))).toBe(12 * 3_600_000);
    expect(retryDelayMs(1, 10_000, () => 0)).toBe(8_000);
    expect(retryDelayMs(1, 10_000, () => 1)).toBe(12_000);
  });
});
