import { describe, expect, it } from 'vitest';
import { RequestMetrics, renderMetrics } from '../../src/ops/metrics.js';
import { call, describeEachStore } from '../helpers/app.js';
import { seedTenant } from '../helpers/seed.js';

/** The value of one sample line, by its exact name and labels. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describeEachStore('ops: GET /metrics (open)', (ctx) => {
  it('counts answers by method, route pattern and status, never by raw path', async () => {
    const { app } = ctx();
    const tenant = await seedTenant(app);
    for (let i = 0; i < 3; i++)
      await call(app, 'GET', `/api/v1/businesses/${tenant.urlKey}/pipelines`, { token: tenant.token });
    await call(app, 'GET', '/api/v1/businesses/other-key/pipelines');
    await call(app, 'GET', '/no/such/path/123');
    const response = await call(app, 'GET', '/metrics');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = response.body as string;
    expect(
      sample(
        text,
        'crmkit_http_requests_total{method="GET",route="/api/v1/businesses/:urlKey/pipelines",status="200"}',
      ),
    ).toBe(3);
    expect(
      sample(
        text,
        'crmkit_http_requests_total{method="GET",route="/api/v1/businesses/:urlKey/pipelines",status="401"}',
      ),
    ).toBe(1);
    expect(
      sample(text, 'crmkit_http_requests_total{method="GET",route="unmatched",status="404"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'crmkit_http_requests_total{method="POST",route="/admin/v1/apps",status="201"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(tenant.urlKey);
    expect(text).not.toContain('/no/such/path');
  });

  it('a latency histogram per route: cumulative buckets ending in +Inf = count', async () => {
    const text = (await call(ctx().app, 'GET', '/metrics')).body as string;
    expect(text).toContain('# TYPE crmkit_http_request_duration_seconds histogram');
    const series = 'method="GET",route="/api/v1/businesses/:urlKey/pipelines"';
    const count = sample(text, `crmkit_http_request_duration_seconds_count{${series}}`);
    expect(count).toBe(4);
    expect(sample(text, `crmkit_http_request_duration_seconds_bucket{${series},le="+Inf"}`)).toBe(count);
    const buckets = text
      .split('\n')
      .filter((l) => l.startsWith(`crmkit_http_request_duration_seconds_bucket{${series}`))
      .map((l) => Number(l.split(' ')[1]));
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b));
    expect(sample(text, `crmkit_http_request_duration_seconds_sum{${series}}`)).toBeGreaterThan(0);
  });

  it('cache hit ratios, build info and process gauges', async () => {
    const text = (await call(ctx().app, 'GET', '/metrics')).body as string;
    expect(sample(text, 'crmkit_cache_hits_total{cache="apps"}')).toBeGreaterThan(0);
    expect(sample(text, 'crmkit_cache_misses_total{cache="apps"}')).toBeGreaterThan(0);
    const ratio = sample(text, 'crmkit_cache_hit_ratio{cache="apps"}')!;
    expect(ratio).toBeGreaterThan(0);
    expect(ratio).toBeLessThanOrEqual(1);
    expect(text).toMatch(
      new RegExp(`^crmkit_build_info\\{version="[^"]+",schema="[^"]+",store="${ctx().storeName}"\\} 1$`, 'm'),
    );
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('every line is a comment or a well-formed sample', async () => {
    const text = (await call(ctx().app, 'GET', '/metrics')).body as string;
    for (const line of text.trimEnd().split('\n')) {
      expect(line).toMatch(/^(# (HELP|TYPE) [a-z_]+ .+|[a-z_]+(\{([a-z_]+="([^"\\]|\\.)*",?)+\})? -?[0-9.e+-]+|NaN)$/);
    }
  });
});

describeEachStore(
  'ops: GET /metrics behind METRICS_TOKEN',
  (ctx) => {
    it('401 without the token or with a wrong one, 200 with it', async () => {
      const { app } = ctx();
      expect((await call(app, 'GET', '/metrics')).status).toBe(401);
      expect((await call(app, 'GET', '/metrics', { token: 'wrong' })).status).toBe(401);
      expect((await call(app, 'GET', '/metrics', { headers: { authorization: 'Basic abc' } })).status).toBe(401);
      const ok = await call(app, 'GET', '/metrics', { headers: { authorization: 'Bearer s3cret+/token=' } });
      expect(ok.status).toBe(200);
      expect(ok.body).toContain('crmkit_http_requests_total{method="GET",route="/metrics",status="401"} 3');
    });
  },
  { metricsToken: 's3cret+/token=' },
);

describe('ops: the exposition', () => {
  it('escapes label values and shows the pool when the store exposes one', () => {
    const metrics = new RequestMetrics();
    metrics.observe('GET', '/a"b\\c', 200, 0.003);
    metrics.observe('GET', '/a"b\\c', 200, 42);
    const text = renderMetrics(metrics, {
      caches: {},
      info: { version: '1' },
      pool: () => ({ total: 5, idle: 2, waiting: 1 }),
    });
    expect(text).toContain('crmkit_http_requests_total{method="GET",route="/a\\"b\\\\c",status="200"} 2');
    expect(text).toContain(
      'crmkit_http_request_duration_seconds_bucket{method="GET",route="/a\\"b\\\\c",le="0.005"} 1',
    );
    expect(text).toContain('crmkit_http_request_duration_seconds_bucket{method="GET",route="/a\\"b\\\\c",le="10"} 1');
    expect(text).toContain('crmkit_http_request_duration_seconds_bucket{method="GET",route="/a\\"b\\\\c",le="+Inf"} 2');
    expect(text).toContain('crmkit_db_pool_connections{state="busy"} 3');
    expect(text).toContain('crmkit_db_pool_waiting 1');
  });
});
